import pg from 'pg';
import type { Orm } from './orm.js';

/** Any fixed number; every process that migrates takes the same advisory lock. */
const MIGRATION_LOCK = 7_331_001;

/**
 * Applies pending migrations. Several processes may start at once (two gateways, a
 * migration job), so the work happens under a Postgres advisory lock held on its
 * own connection.
 */
export async function migrateDatabase(orm: Orm, url: string): Promise<string[]> {
  const lock = new pg.Client({ connectionString: url, application_name: 'crm migrate' });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await orm.migrator.up();
    return applied.map((m) => m.name);
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.end();
  }
}
