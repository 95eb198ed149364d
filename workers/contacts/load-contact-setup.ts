import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { fieldDefinitionsSql, type FieldDefinition } from '../schema/custom-field-definitions.js';

/** The workspace settings a contact's fields are read with. */
export interface ContactSetup {
  default_country: string | null;
  fields: FieldDefinition[];
}

/** What reading or writing contacts depends on, in one round trip: the default country and the field definitions. */
export async function loadContactSetup(db: WorkspaceSql): Promise<ContactSetup> {
  return db.global
    .selectFrom('workspaces')
    .select('default_country')
    .select(fieldDefinitionsSql(db, 'contact').as('fields'))
    .where('id', '=', db.workspaceId)
    .executeTakeFirstOrThrow();
}
