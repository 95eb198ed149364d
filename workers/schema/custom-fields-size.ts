import { CUSTOM_FIELDS_MAX_BYTES, type CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { ValidationError } from '../../shared/errors.js';

/** The name the database's limit (migration 0015) raises with, after its table's: `contacts_custom_fields_size`. */
const SIZE_LIMIT_SUFFIX = '_custom_fields_size';

export function customFieldsTooLarge(): ValidationError {
  return new ValidationError(`custom_fields: a record's custom field values may take at most ${CUSTOM_FIELDS_MAX_BYTES / 1000} KB in all (as JSON).`, 'custom_fields');
}

/** Whether a violated constraint is that limit: the write it refused rolled back whole. */
export function isCustomFieldsSizeLimit(constraint: string | null): boolean {
  return constraint?.endsWith(SIZE_LIMIT_SUFFIX) ?? false;
}

/**
 * Refuses values over the limit before they reach the database, measured as the database
 * measures them (jsonb written out puts a space after each colon and comma), so an import
 * reports the row instead of failing its batch. Updates, which merge over stored values,
 * are checked by the database alone.
 */
export function requireCustomFieldsFit(values: CustomFieldValues): void {
  const keys = Object.keys(values).length;
  if (keys === 0) return;
  if (Buffer.byteLength(JSON.stringify(values)) + 2 * keys - 1 > CUSTOM_FIELDS_MAX_BYTES) throw customFieldsTooLarge();
}
