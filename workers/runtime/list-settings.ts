import { sql, type RawBuilder } from 'kysely';
import type { CustomFieldObject } from '../../shared/db/entities/custom-field.js';
import type { EntityManager } from '../../shared/db/orm.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { CrmError, UnavailableError } from '../../shared/errors.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { LastReadSettings } from './last-read-settings.js';
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
 * first time). The read's statements must hold `current` in their WHERE: it is true while
 * the settings are still at that version and otherwise raises, so a read made with stale
 * settings fails whole and runs again with them read anew. A list thus costs one statement
 * (plus a primary-key lookup of the version), and Postgres does not send the settings with
 * every row. A refusal made before any statement ran (a phone not valid in the default
 * country, a cursor whose filters were read in another time zone) is checked the same way:
 * made again if the settings have changed.
 *
 * Inside a transaction the raise would abort it, so there the settings are read first and
 * the check is left out.
 */
export async function withListSettings<T>(
  { db, em }: { db: WorkspaceSql; em: EntityManager },
  object: CustomFieldObject,
  read: (settings: ListSettings, current: RawBuilder<boolean>) => Promise<T>,
): Promise<T> {
  if (em.isInTransaction()) return read(await loadListSettings(db, object), sql<boolean>`true`);
  let settings = LAST_READ.get(`${db.workspaceId}:${object}`) ?? (await loadListSettings(db, object));
  // Settings that change twice while a read runs are read a third time; more is a fault.
  for (let attempt = 1; ; attempt++) {
    try {
      // A subquery, so Postgres checks once per statement rather than once per row.
      return await read(settings, sql<boolean>`(select crm_assert_settings_version(${db.workspaceId}, ${settings.settings_version}))`);
    } catch (error) {
      const stale = settingsChanged(error);
      if (!stale && !(error instanceof CrmError)) throw error;
      // Settings that keep changing (a script defining fields) are worth a retry by the client, not a 500.
      if (attempt === 3) throw stale ? new UnavailableError('The workspace settings changed while the list was read. Retry shortly.') : error;
      const current = await loadListSettings(db, object);
      if (!stale && current.settings_version === settings.settings_version) throw error;
      settings = current;
    }
  }
}
