import type { CustomFieldObject } from '../../shared/db/entities/custom-field.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';

/**
 * Locks FOR SHARE, until the write commits, the definitions of the custom fields a write sets.
 * A change of a select's options locks its field FOR UPDATE and then counts the records
 * holding a removed option: without this a record written meanwhile, checked against the
 * old options, would escape the count and keep an option the field no longer has.
 * Call it before reading the definitions: that read then sees any change that committed first.
 */
export async function lockFieldDefinitions(db: WorkspaceSql, objectType: CustomFieldObject, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.selectFrom('custom_fields').select('id').where('object_type', '=', objectType).where('key', 'in', keys).orderBy('id').forShare().execute();
}
