import { customFieldsUnchanged } from '../schema/custom-fields-unchanged.js';
import { leftAsIs } from '../runtime/left-as-is.js';
import type { CustomFieldChange } from '../schema/validate-custom-field-values.js';
import type { ContactRow } from './contact-resource.js';

/** The plain columns a PATCH may set, as the handler resolved them (phone normalized; undefined: left as is). */
export interface ContactColumnChange {
  first_name?: string;
  last_name?: string | null;
  email?: string | null;
  phone?: string;
  status?: string;
  owner_id?: string | null;
}

/**
 * Whether a PATCH leaves the (locked) contact as it is: then nothing is written, so neither
 * updated_at moves nor an event is recorded, as for deals and notes.
 */
export function contactUnchanged(current: ContactRow, fields: ContactColumnChange, customFields: CustomFieldChange | null): boolean {
  return (
    leftAsIs(fields.first_name, current.first_name) &&
    leftAsIs(fields.last_name, current.last_name) &&
    leftAsIs(fields.email, current.email) &&
    leftAsIs(fields.phone, current.phone) &&
    leftAsIs(fields.status, current.status) &&
    leftAsIs(fields.owner_id, current.owner_id) &&
    customFieldsUnchanged(current.custom_fields, customFields)
  );
}
