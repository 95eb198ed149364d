import { sql, type RawBuilder } from 'kysely';
import type { CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { jsonb } from '../../shared/db/sql.js';
import type { CustomFieldChange } from './validate-custom-field-values.js';

/**
 * `custom_fields` after a change, computed by Postgres in the UPDATE itself, so two
 * concurrent changes to different keys both survive.
 */
export function mergedCustomFieldsSql(change: CustomFieldChange): RawBuilder<CustomFieldValues> {
  return sql<CustomFieldValues>`(custom_fields || ${jsonb(change.set)}) - ${sql.val(change.clear)}::text[]`;
}
