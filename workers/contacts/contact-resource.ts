import type { Selectable } from 'kysely';
import type { Contact as ContactResource } from '../../shared/contracts/contacts.js';
import { isoTimestamp, type CrmDatabase } from '../../shared/db/sql.js';
import { presentCustomFields } from '../schema/validate-custom-field-values.js';

export type ContactRow = Selectable<CrmDatabase['contacts']>;

/**
 * The columns a contact's resource is made of: what reads select instead of `*`, which would
 * also carry the generated `search_text` (migration 0009) of every row for nothing. No
 * `workspace_id` either: every read is of one workspace already.
 */
export const CONTACT_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'status',
  'custom_fields',
  'owner_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ContactRow)[];

/** The API shape of a contact; `fieldKeys` are the workspace's active contact custom fields. */
export function toContactResource(c: Pick<ContactRow, (typeof CONTACT_COLUMNS)[number]>, fieldKeys: string[]): ContactResource {
  return {
    object: 'contact',
    id: c.id,
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    phone: c.phone,
    status: c.status,
    custom_fields: presentCustomFields(c.custom_fields, fieldKeys),
    owner_id: c.owner_id,
    created_at: isoTimestamp(c.created_at),
    updated_at: isoTimestamp(c.updated_at),
  };
}
