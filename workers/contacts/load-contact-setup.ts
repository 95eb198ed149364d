import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { fieldDefinitionsSql, type FieldDefinition } from '../schema/custom-field-definitions.js';

/** The workspace settings a contact's fields are read with. */
export interface ContactSetup {
  default_country: string | null;
  fields: FieldDefinition[];
  /** `workspaces.settings_version` when read: Postgres raises it when any of the above changes. */
  settings_version: number;
}

/** Each workspace's setup as this process last read it. Bounded: the oldest entries leave first. */
const LAST_READ = new Map<string, ContactSetup>();
const LAST_READ_MAX = 10_000;

/** What reading or writing contacts depends on, in one round trip: the default country and the field definitions. */
export async function loadContactSetup(db: WorkspaceSql): Promise<ContactSetup> {
  const setup = await db.global
    .selectFrom('workspaces')
    .select(['default_country', 'settings_version'])
    .select(fieldDefinitionsSql(db, 'contact').as('fields'))
    .where('id', '=', db.workspaceId)
    .executeTakeFirstOrThrow();
  const cached = LAST_READ.get(db.workspaceId);
  // Reads that overlap may finish out of order: keep the newer.
  if (cached && cached.settings_version > setup.settings_version) return setup;
  LAST_READ.delete(db.workspaceId);
  if (LAST_READ.size >= LAST_READ_MAX) LAST_READ.delete(LAST_READ.keys().next().value as string);
  LAST_READ.set(db.workspaceId, setup);
  return setup;
}

/**
 * The setup this process last read for the workspace, which may since have changed: a write
 * made with it must check its version (crm_assert_settings_version, migration 0012).
 */
export function lastReadContactSetup(workspaceId: string): ContactSetup | undefined {
  return LAST_READ.get(workspaceId);
}
