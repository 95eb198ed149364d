import type { CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import type { CustomFieldChange } from './validate-custom-field-values.js';

/** Whether a custom field change (none: null) leaves the stored values as they are. */
export function customFieldsUnchanged(stored: CustomFieldValues, change: CustomFieldChange | null): boolean {
  if (!change) return true;
  const same = Object.entries(change.set).every(([key, value]) => Object.hasOwn(stored, key) && stored[key] === value);
  return same && change.clear.every((key) => !Object.hasOwn(stored, key));
}
