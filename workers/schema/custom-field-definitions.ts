import { sql, type RawBuilder } from 'kysely';
import type { CustomFieldObject, CustomFieldType } from '../../shared/db/entities/custom-field.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';

/** What validation and presentation need to know about a custom field. */
export interface FieldDefinition {
  key: string;
  type: CustomFieldType;
  options: string[] | null;
  required: boolean;
  archived: boolean;
}

/**
 * The workspace's field definitions for one object, as a JSON array computed once per
 * statement (an uncorrelated subquery), so a read needs no second round trip.
 */
export function fieldDefinitionsSql(db: WorkspaceSql, objectType: CustomFieldObject): RawBuilder<FieldDefinition[]> {
  const definitions = db
    .selectFrom('custom_fields as f')
    .select(
      sql`coalesce(json_agg(json_build_object(
        'key', f.key, 'type', f.type, 'options', f.options, 'required', f.required, 'archived', f.archived_at is not null
      ) order by f.created_at, f.id), '[]')`.as('fields'),
    )
    .where('f.object_type', '=', objectType);
  return sql<FieldDefinition[]>`${definitions}`;
}

/** Keys of the fields that show on records: archived fields are hidden, their values kept. */
export function activeFieldKeysSql(db: WorkspaceSql, objectType: CustomFieldObject): RawBuilder<string[]> {
  const keys = db
    .selectFrom('custom_fields as f')
    .select(sql`coalesce(json_agg(f.key order by f.created_at, f.id), '[]')`.as('keys'))
    .where('f.object_type', '=', objectType)
    .where('f.archived_at', 'is', null);
  return sql<string[]>`${keys}`;
}

export function activeKeys(fields: FieldDefinition[]): string[] {
  return fields.filter((f) => !f.archived).map((f) => f.key);
}
