import type { Selectable } from 'kysely';
import type { CustomField } from '../../shared/contracts/custom-fields.js';
import { isoTimestamp, type CrmDatabase } from '../../shared/db/sql.js';

export type CustomFieldRow = Selectable<CrmDatabase['custom_fields']>;

export function toCustomFieldResource(f: CustomFieldRow): CustomField {
  return {
    object: 'custom_field',
    id: f.id,
    object_type: f.object_type,
    key: f.key,
    label: f.label,
    type: f.type,
    options: f.options,
    required: f.required,
    archived: f.archived_at !== null,
    created_at: isoTimestamp(f.created_at),
    updated_at: isoTimestamp(f.updated_at),
  };
}
