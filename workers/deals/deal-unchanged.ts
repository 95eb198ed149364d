import { pgTimestamp } from '../../shared/db/sql.js';
import { customFieldsUnchanged } from '../schema/custom-fields-unchanged.js';
import { leftAsIs } from '../runtime/left-as-is.js';
import type { CustomFieldChange } from '../schema/validate-custom-field-values.js';
import type { Placement } from './deal-placement.js';
import type { DealRow } from './deal-resource.js';

/** The plain columns a PATCH may set, as the handler resolved them (undefined: left as is). */
export interface DealColumnChange {
  name?: string;
  amount?: number | null;
  currency?: string | null;
  contact_id?: string | null;
  owner_id?: string | null;
  closed_at?: string | null;
}

/**
 * `stored` is Postgres' text ("0099-06-01 00:00:00+00"), read with pgTimestamp: JavaScript's
 * Date reads that form as a legacy date and took the year 0099 for 1999, so a PATCH repeating
 * such a closed_at wrote again, and one setting 1999 was taken for no change and not written.
 */
function sameInstant(stored: string | Date | null, given: string | null): boolean {
  if (stored === null || given === null) return stored === given;
  const storedAt = typeof stored === 'string' ? pgTimestamp(stored) : stored;
  return storedAt.getTime() === new Date(given).getTime();
}

/**
 * Whether a PATCH leaves the (locked) deal as it is: then nothing is written, so neither
 * updated_at moves nor an event is recorded, as for notes.
 */
export function dealUnchanged(current: DealRow, fields: DealColumnChange, placement: Placement | undefined, customFields: CustomFieldChange | null): boolean {
  return (
    leftAsIs(fields.name, current.name) &&
    leftAsIs(fields.amount, current.amount === null ? null : Number(current.amount)) &&
    leftAsIs(fields.currency, current.currency) &&
    leftAsIs(fields.contact_id, current.contact_id) &&
    leftAsIs(fields.owner_id, current.owner_id) &&
    (fields.closed_at === undefined || sameInstant(current.closed_at, fields.closed_at)) &&
    (placement === undefined || (placement.pipelineId === current.pipeline_id && placement.stageId === current.stage_id)) &&
    customFieldsUnchanged(current.custom_fields, customFields)
  );
}
