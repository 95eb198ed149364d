import { sql, type RawBuilder } from 'kysely';
import type { CustomFieldObject, CustomFieldType } from '../../shared/db/entities/custom-field.js';

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
export function fieldDefinitionsSql(workspaceId: string, objectType: CustomFieldObject): RawBuilder<FieldDefinition[]> {
  return sql<FieldDefinition[]>`(
    select coalesce(json_agg(json_build_object(
      'key', f.key, 'type', f.type, 'options', f.options, 'required', f.required, 'archived', f.archived_at is not null
    ) order by f.created_at, f.id), '[]')
    from custom_fields f where f.workspace_id = ${workspaceId} and f.object_type = ${objectType})`;
}

/** Keys of the fields that show on records: archived fields are hidden, their values kept. */
export function activeFieldKeysSql(workspaceId: string, objectType: CustomFieldObject): RawBuilder<string[]> {
  return sql<string[]>`(
    select coalesce(json_agg(f.key order by f.created_at, f.id), '[]')
    from custom_fields f where f.workspace_id = ${workspaceId} and f.object_type = ${objectType} and f.archived_at is null)`;
}

export function activeKeys(fields: FieldDefinition[]): string[] {
  return fields.filter((f) => !f.archived).map((f) => f.key);
}
