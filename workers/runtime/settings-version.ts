import { sql, type RawBuilder } from 'kysely';

/** The SQLSTATE crm_assert_settings_version raises (migration 0012). */
const SETTINGS_CHANGED = 'CRMSV';

/**
 * For a write's RETURNING (or a read's WHERE): true while the workspace's settings are still at `version`;
 * otherwise Postgres raises, and the whole statement, its event included, is undone.
 */
export function settingsStillAt(workspaceId: string, version: number): RawBuilder<boolean> {
  return sql<boolean>`crm_assert_settings_version(${workspaceId}, ${version})`;
}

/** Whether a statement was undone because the workspace's settings changed since they were read. */
export function settingsChanged(error: unknown): boolean {
  const e = error as { code?: unknown; sqlState?: unknown; cause?: unknown };
  if (e.code === SETTINGS_CHANGED || e.sqlState === SETTINGS_CHANGED) return true;
  return e.cause !== undefined && e.cause !== error && settingsChanged(e.cause);
}
