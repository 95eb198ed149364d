import type { CreateContactInput } from '../../shared/contracts/contacts.js';
import type { CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { jsonb } from '../../shared/db/sql.js';
import type { ScopedInsertRow } from '../../shared/db/workspace-sql.js';
import { CrmError, ValidationError } from '../../shared/errors.js';
import { checkedCustomFieldsForCreate } from '../schema/validate-custom-field-values.js';
import type { ContactSetup } from './load-contact-setup.js';
import { normalizePhone } from './normalize-phone.js';

/** A new contact's stored fields, the owner aside (it is checked on its own). */
export interface NewContact {
  first_name: string;
  last_name: string | null;
  email: string | null;
  /** E.164. */
  phone: string;
  status: 'active' | 'archived';
  custom_fields: CustomFieldValues;
}

/**
 * What contacts.create stores for its input: the defaults applied, the phone read in the
 * workspace's default country, custom fields checked against their definitions. Throws
 * the error the API gives (phone first, then custom fields).
 */
export function newContact(input: CreateContactInput, setup: ContactSetup): NewContact {
  const { contact, problems } = checkedNewContact(input, setup);
  if (problems[0]) throw problems[0];
  // Not reached: the schema requires both.
  if (!contact) throw new ValidationError('first_name and phone are required.');
  return contact;
}

/**
 * {@link newContact}'s checks, every problem found, in the order it checks them (phone, then
 * custom fields). A field the input leaves out (one its schema refused, in an import row) is
 * not checked again; the contact comes only with no problem, first_name and phone given.
 */
export function checkedNewContact(input: Partial<CreateContactInput>, setup: ContactSetup): { contact?: NewContact; problems: CrmError[] } {
  const problems: CrmError[] = [];
  let phone: string | undefined;
  try {
    if (input.phone !== undefined) phone = normalizePhone(input.phone, setup.default_country);
  } catch (error) {
    if (!(error instanceof CrmError)) throw error;
    problems.push(error);
  }
  const custom = checkedCustomFieldsForCreate(setup.fields, 'contact', input.custom_fields ?? {});
  problems.push(...custom.problems);
  if (problems.length > 0 || input.first_name === undefined || phone === undefined) return { problems };
  return {
    contact: {
      first_name: input.first_name,
      last_name: input.last_name ?? null,
      email: input.email ?? null,
      phone,
      status: input.status ?? 'active',
      custom_fields: custom.values,
    },
    problems,
  };
}

/** The `contacts` row of a new contact, created and updated at `now`. */
export function contactRow(
  contact: NewContact & { owner_id: string | null },
  { id, workspaceId, now }: { id: string; workspaceId: string; now: Date },
): ScopedInsertRow<'contacts'> {
  return {
    id,
    workspace_id: workspaceId,
    first_name: contact.first_name,
    last_name: contact.last_name,
    email: contact.email,
    phone: contact.phone,
    status: contact.status,
    custom_fields: jsonb(contact.custom_fields),
    owner_id: contact.owner_id,
    created_at: now,
    updated_at: now,
  };
}
