import { Router } from 'express';
import { getContact } from '../../../shared/contracts/contacts.js';
import { NotFoundError } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { sendPage } from '../../pages/session-routes.js';
import { may } from '../console-layout.js';
import { sessionOf } from '../console-session.js';
import { pathParam } from '../form-fields.js';
import { contactPage } from '../pages/contact-page.js';
import { recordEvents } from '../record-events.js';
import { recordValueNames } from '../record-value-names.js';

/**
 * One contact and its history, read with GET /v1/contacts/{id}'s operation in the member's
 * context: a contact they may not see (another owner's, for an `owned` member) is a 404.
 */
export function contactRoute(deps: GatewayDeps): Router {
  const router = Router();
  router.get('/:contactId', async (req, res) => {
    const session = sessionOf(req);
    const id = pathParam(req, 'contactId');
    // Without contacts:read the contact does not exist for this member, as for REST's owned visibility.
    if (!may(session, 'contacts:read')) throw new NotFoundError('contact', id);
    const [{ result: contact }, history, names] = await Promise.all([
      callWorker(deps.bus, req, getContact, { id }),
      recordEvents(deps, req, id),
      recordValueNames(deps, req, session),
    ]);
    sendPage(res, contactPage({ session, contact, ...history, names }));
  });
  return router;
}
