import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { fieldDefinitionsSql, type FieldDefinition } from '../schema/custom-field-definitions.js';

export async function loadDealFields(em: EntityManager, workspaceId: string): Promise<FieldDefinition[]> {
  const row = await sqlOf(em)
    .selectFrom('workspaces')
    .select(fieldDefinitionsSql(workspaceId, 'deal').as('fields'))
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return row.fields;
}
