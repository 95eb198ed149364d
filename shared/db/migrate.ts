import pg from 'pg';
import type { Orm } from './orm.js';
import { postgresErrorOf } from './sql.js';

/** Any fixed number; every process that migrates takes the same advisory lock. */
const MIGRATION_LOCK = 7_331_001;

/**
 * How long a migration waits for a table's lock before it rolls back and tries again. A
 * statement waiting for a lock makes every later query on that table queue behind it: a
 * migration stuck behind one long transaction would stall the service's reads and writes of
 * that table until it ended, during a rollout that promises the previous release keeps working.
 */
export const MIGRATION_LOCK_WAIT_MS = 2_000;

export interface MigrateOptions {
  /** How long one attempt waits for a table's lock (tests shorten it). */
  lockWaitMs?: number;
}

/**
 * Applies pending migrations. Several processes may start at once (two gateways, a
 * migration job), so the work happens under a Postgres advisory lock held on its
 * own connection. All pending migrations apply in one transaction, or none do.
 */
export async function migrateDatabase(orm: Orm, url: string, options: MigrateOptions = {}): Promise<string[]> {
  const lockWaitMs = options.lockWaitMs ?? MIGRATION_LOCK_WAIT_MS;
  const lock = new pg.Client({ connectionString: url, application_name: 'crm migrate' });
  // Without a listener, the connection's loss (Postgres restarting, the session ended by an
  // administrator) was an uncaught 'error' event that ended the process with a stack trace.
  let lost: Error | undefined;
  lock.on('error', (error) => (lost = error));
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]).catch((error: unknown) => {
      throw new Error(`Lost the connection waiting for the migration lock: ${error instanceof Error ? error.message : String(error)}. Nothing was applied; run it again.`, { cause: error });
    });
    for (;;) {
      // Another process may take the lock now: stop rather than migrate beside it.
      if (lost) throw new Error(`Lost the connection holding the migration lock: ${lost.message}. Run it again: what is left pending is applied then.`, { cause: lost });
      try {
        return await applyPending(orm, lockWaitMs);
      } catch (error) {
        if (!isLockTimeout(error)) throw error;
        // Rolled back whole: let the queries that waited behind it through, then try again.
        await new Promise((resolve) => setTimeout(resolve, lockWaitMs));
      }
    }
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.end();
  }
}

async function applyPending(orm: Orm, lockWaitMs: number): Promise<string[]> {
  const connection = orm.em.getConnection();
  const applied = await connection.transactional(async (trx) => {
    await connection.execute(`set local lock_timeout = ${Math.max(1, Math.round(lockWaitMs))}`, [], 'run', trx);
    return orm.migrator.up({ transaction: trx });
  });
  return applied.map((m) => m.name);
}

/** 55P03 lock_not_available, as the driver or the ORM wrapping it reports it. */
const LOCK_NOT_AVAILABLE: ReadonlySet<string> = new Set(['55P03']);

function isLockTimeout(error: unknown): boolean {
  return postgresErrorOf(error, LOCK_NOT_AVAILABLE) !== null;
}
