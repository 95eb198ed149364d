import type { Request } from 'express';
import { getContact, listContacts } from '../../shared/contracts/contacts.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { callWorker } from '../call-worker.js';
import type { GatewayDeps } from '../deps.js';
import { crmErrorIn } from '../pages/form-error.js';
import { may } from './console-layout.js';
import { sessionOf } from './console-session.js';
import { contactName } from './pages/contact-page.js';

/** A contact id is at most this long (the API's record ids); longer text is no id. */
const ID_MAX = 64;
/** The longest e-mail address the contact filter takes. */
const EMAIL_MAX = 254;

/** The one refusal for a contact the member may not link: the same whether it is another owner's or none at all. */
export function unknownContactMessage(typed: string): string {
  return `Contact: no contact you can see is "${typed.trim()}". Give the e-mail address or the id (con_…) shown on the contact's page.`;
}

const unknown = () => new NotFoundError('contact', undefined, 'contact_id');

/**
 * The contact a new deal's form names, by e-mail address or id, as the member sees contacts: an
 * e-mail is looked up with GET /v1/contacts' operation in their context (an `owned` member finds
 * only their own), an id goes to the worker, which refuses one they may not see as not found.
 * Both are a not_found naming contact_id, answered with {@link unknownContactMessage}. A member
 * who may not read contacts links none: any text is refused so, without a look-up (the worker
 * would refuse it too, as a missing contacts:read). Empty: no contact.
 */
export async function chosenContactId(deps: GatewayDeps, req: Request, typed: string): Promise<string | undefined> {
  const text = typed.trim();
  if (text === '') return undefined;
  if (!may(sessionOf(req), 'contacts:read')) throw unknown();
  if (!text.includes('@')) {
    if (text.length > ID_MAX) throw unknown();
    return text;
  }
  if (text.length > EMAIL_MAX) throw unknown();
  const { data } = (await callWorker(deps.bus, req, listContacts, { limit: 2, email: text })).result;
  const [found, another] = data;
  if (!found) throw unknown();
  if (another) throw new ValidationError('contact: more than one contact you can see has this e-mail address; give the id (con_…) shown on the page of the one you mean.', 'contact');
  return found.id;
}

/**
 * The contact a "New deal" link from a contact's page presets (`?contact=`), with its name to
 * show; none when the member may not read it, so the link tells nothing of a contact they cannot see.
 */
export async function presetContact(deps: GatewayDeps, req: Request, wanted: unknown): Promise<{ id: string; name: string } | null> {
  if (typeof wanted !== 'string' || wanted === '' || wanted.length > ID_MAX || !may(sessionOf(req), 'contacts:read')) return null;
  try {
    const contact = (await callWorker(deps.bus, req, getContact, { id: wanted })).result;
    return { id: contact.id, name: contactName(contact) };
  } catch (error) {
    if (crmErrorIn(error, ['not_found'])) return null;
    throw error;
  }
}
