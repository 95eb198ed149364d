import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { fieldDefinitionsSql, type FieldDefinition } from '../schema/custom-field-definitions.js';

export async function loadDealFields(db: WorkspaceSql): Promise<FieldDefinition[]> {
  const row = await db.global
    .selectFrom('workspaces')
    .select(fieldDefinitionsSql(db, 'deal').as('fields'))
    .where('id', '=', db.workspaceId)
    .executeTakeFirstOrThrow();
  return row.fields;
}
