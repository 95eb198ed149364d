import { isDeepStrictEqual } from 'node:util';
import { leftAsIs } from '../runtime/left-as-is.js';
import type { ParsedInput } from '../../shared/bus/operation.js';
import type { updateCustomField } from '../../shared/contracts/custom-fields.js';
import type { CustomFieldRow } from './custom-field-resource.js';

/** What a change of a custom field may set (undefined: left as is). */
export type CustomFieldChange = Omit<ParsedInput<typeof updateCustomField>, 'id'>;

/**
 * Whether a change leaves the (locked) definition as it is (the same label again, archiving an
 * archived field): then nothing is written, so neither updated_at moves nor an event is recorded.
 */
export function customFieldUnchanged(before: CustomFieldRow, change: CustomFieldChange): boolean {
  return (
    leftAsIs(change.label, before.label) &&
    (change.options === undefined || isDeepStrictEqual(change.options, before.options)) &&
    leftAsIs(change.required, before.required) &&
    leftAsIs(change.archived, before.archived_at !== null)
  );
}
