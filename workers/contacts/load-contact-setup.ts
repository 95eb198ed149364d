import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { fieldDefinitionsSql, type FieldDefinition } from '../schema/custom-field-definitions.js';

/** What reading or writing contacts depends on, in one round trip: the default country and the field definitions. */
export async function loadContactSetup(em: EntityManager, context: CallContext): Promise<{ default_country: string | null; fields: FieldDefinition[] }> {
  return sqlOf(em)
    .selectFrom('workspaces')
    .select('default_country')
    .select(fieldDefinitionsSql(context.workspace_id, 'contact').as('fields'))
    .where('id', '=', context.workspace_id)
    .executeTakeFirstOrThrow();
}
