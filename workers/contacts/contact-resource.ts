import type { Selectable } from 'kysely';
import type { Contact as ContactResource } from '../../shared/contracts/contacts.js';
import { isoTimestamp, type CrmDatabase } from '../../shared/db/sql.js';
import { presentCustomFields } from '../schema/validate-custom-field-values.js';

export type ContactRow = Selectable<CrmDatabase['contacts']>;

/** The API shape of a contact; `fieldKeys` are the workspace's active contact custom fields. */
export function toContactResource(c: ContactRow, fieldKeys: string[]): ContactResource {
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
