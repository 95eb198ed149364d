import { sql, type RawBuilder } from 'kysely';
import type { CustomFieldObject } from '../../shared/db/entities/custom-field.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { LastReadSettings } from './last-read-settings.js';
import { settingsStillAt } from './settings-version.js';

/** What a list or count of one kind of record is read and presented with. */
export interface ListSettings {
  /** Phones in filters are read in it. */
  default_country: string | null;
  /** Days in filters begin in it; lists echo it. */
  time_zone: string;
  /** The active custom fields of the kind, in their order: every record presents these keys. */
  field_keys: string[];
  /** `workspaces.settings_version` when read: Postgres raises it when any of the above changes (migration 0012). */
  settings_version: number;
}

/** Each workspace's settings as this process last read them, by workspace and kind. */
const LAST_READ = new LastReadSettings<ListSettings>();

async function loadListSettings(db: WorkspaceSql, object: CustomFieldObject): Promise<ListSettings> {
  const settings = await db.global
    .selectFrom('workspaces')
    .select(['default_country', 'time_zone', 'settings_version'])
    .select(activeFieldKeysSql(db, object).as('field_keys'))
    .where('id', '=', db.workspaceId)
    .executeTakeFirstOrThrow();
  return LAST_READ.remember(`${db.workspaceId}:${object}`, settings);
}

/**
 * Runs a read with the workspace's settings as this process last read them (read now the
 * first time; see {@link LastReadSettings.use}). The read's statements must hold `current`
 * in their WHERE: true while the settings are still at that version, otherwise a raise that
 * makes the read run again with them read anew. A list thus costs one statement (plus a
 * primary-key lookup of the version), and Postgres does not send the settings with every row.
 */
export async function withListSettings<T>(
  db: WorkspaceSql,
  object: CustomFieldObject,
  read: (settings: ListSettings, current: RawBuilder<boolean>) => Promise<T>,
): Promise<T> {
  return LAST_READ.use(`${db.workspaceId}:${object}`, () => loadListSettings(db, object), { inTransaction: db.inTransaction }, (settings, check) =>
    // A subquery, so Postgres checks once per statement rather than once per row.
    read(settings, check ? sql<boolean>`(select ${settingsStillAt(db.workspaceId, settings.settings_version)})` : sql<boolean>`true`),
  );
}
