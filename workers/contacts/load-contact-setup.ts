import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { LastReadSettings } from '../runtime/last-read-settings.js';
import { fieldDefinitionsSql, type FieldDefinition } from '../schema/custom-field-definitions.js';

/** The workspace settings a contact's fields are read with. */
export interface ContactSetup {
  default_country: string | null;
  fields: FieldDefinition[];
  /** `workspaces.settings_version` when read: Postgres raises it when any of the above changes. */
  settings_version: number;
}

/** Each workspace's setup as this process last read it. */
const LAST_READ = new LastReadSettings<ContactSetup>();

/** What reading or writing contacts depends on, in one round trip: the default country and the field definitions. */
export async function loadContactSetup(db: WorkspaceSql): Promise<ContactSetup> {
  const setup = await db.global
    .selectFrom('workspaces')
    .select(['default_country', 'settings_version'])
    .select(fieldDefinitionsSql(db, 'contact').as('fields'))
    .where('id', '=', db.workspaceId)
    .executeTakeFirstOrThrow();
  return LAST_READ.remember(db.workspaceId, setup);
}

/**
 * Runs `use` with the setup this process last read for the workspace (see
 * {@link LastReadSettings.use}): with `check`, its write must hold only while that setup is
 * current (crm_assert_settings_version, migration 0012), and runs again with a fresh one if not.
 */
export function withContactSetup<R>({ db }: { db: WorkspaceSql }, use: (setup: ContactSetup, check: boolean) => Promise<R>): Promise<R> {
  return LAST_READ.use(db.workspaceId, () => loadContactSetup(db), { inTransaction: db.inTransaction }, use);
}
