import { sql, type RawBuilder } from 'kysely';
import type { CustomFieldObject } from '../../shared/db/entities/custom-field.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { ValidationError } from '../../shared/errors.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { settingsChanged } from './settings-version.js';

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

/** Each workspace's settings as this process last read them, by workspace and kind. Bounded: the oldest entries leave first. */
const LAST_READ = new Map<string, ListSettings>();
const LAST_READ_MAX = 10_000;

async function loadListSettings(db: WorkspaceSql, object: CustomFieldObject): Promise<ListSettings> {
  const settings = await db.global
    .selectFrom('workspaces')
    .select(['default_country', 'time_zone', 'settings_version'])
    .select(activeFieldKeysSql(db, object).as('field_keys'))
    .where('id', '=', db.workspaceId)
    .executeTakeFirstOrThrow();
  const key = `${db.workspaceId}:${object}`;
  const cached = LAST_READ.get(key);
  // Reads that overlap may finish out of order: keep the newer.
  if (cached && cached.settings_version > settings.settings_version) return settings;
  LAST_READ.delete(key);
  if (LAST_READ.size >= LAST_READ_MAX) LAST_READ.delete(LAST_READ.keys().next().value as string);
  LAST_READ.set(key, settings);
  return settings;
}

/**
 * Runs a read with the workspace's settings as this process last read them (read now the
 * first time). The read's statements must hold `current` in their WHERE: it is true while
 * the settings are still at that version and otherwise raises, so a read made with stale
 * settings fails whole and runs again with them read anew. A list thus costs one statement,
 * and Postgres neither looks the settings up nor sends them with every row. A refusal made
 * before any statement ran (a phone not valid in the default country) is checked the same
 * way: made again if the settings have changed.
 *
 * Reads only: they run outside a transaction, which the raise would abort.
 */
export async function withListSettings<T>(
  db: WorkspaceSql,
  object: CustomFieldObject,
  read: (settings: ListSettings, current: RawBuilder<boolean>) => Promise<T>,
): Promise<T> {
  let settings = LAST_READ.get(`${db.workspaceId}:${object}`) ?? (await loadListSettings(db, object));
  // Settings that change twice while a read runs are read a third time; more is a fault.
  for (let attempt = 1; ; attempt++) {
    try {
      // A subquery, so Postgres checks once per statement rather than once per row.
      return await read(settings, sql<boolean>`(select crm_assert_settings_version(${db.workspaceId}, ${settings.settings_version}))`);
    } catch (error) {
      const stale = settingsChanged(error);
      if ((!stale && !(error instanceof ValidationError)) || attempt === 3) throw error;
      const current = await loadListSettings(db, object);
      if (!stale && current.settings_version === settings.settings_version) throw error;
      settings = current;
    }
  }
}
