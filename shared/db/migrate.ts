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
  /**
   * Told when the migration waits: for another process's migration, or for a table that a
   * transaction holds. A rollout that sits silent for minutes looks hung; the line says why and
   * which sessions to look at.
   */
  log?: MigrationWaitLog;
}

/** The part of a logger the migration uses (a pino logger is one). */
export interface MigrationWaitLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** The oldest open transactions besides the migration's own, as `pg_stat_activity` shows them. */
const OLDEST_TRANSACTIONS = `select pid, application_name, state, round(extract(epoch from now() - xact_start))::int as open_seconds
  from pg_stat_activity
  where xact_start is not null and pid <> pg_backend_pid() and datname = current_database()
  order by xact_start limit 3`;

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
    try {
      const tried = await lock.query('select pg_try_advisory_lock($1) as taken', [MIGRATION_LOCK]);
      if (!(tried.rows[0] as { taken: boolean } | undefined)?.taken) {
        options.log?.warn({}, 'another process is applying migrations; waiting for it to finish');
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      }
    } catch (error) {
      throw new Error(`Lost the connection waiting for the migration lock: ${error instanceof Error ? error.message : String(error)}. Nothing was applied; run it again.`, { cause: error });
    }
    for (let attempt = 1; ; attempt++) {
      // Another process may take the lock now: stop rather than migrate beside it.
      if (lost) throw new Error(`Lost the connection holding the migration lock: ${lost.message}. Run it again: what is left pending is applied then.`, { cause: lost });
      try {
        return await applyPending(orm, lockWaitMs);
      } catch (error) {
        if (!isLockTimeout(error)) throw error;
        if (options.log) {
          const oldest = await lock.query(OLDEST_TRANSACTIONS).then((result) => result.rows, () => []);
          options.log.warn({ attempt, retry_in_ms: lockWaitMs, oldest_transactions: oldest }, 'a migration waits for a table that an open transaction holds; rolled back, trying again (end or wait out the transactions listed)');
        }
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
    // `crm start` migrates on its request pool, whose statements DB_STATEMENT_TIMEOUT_MS bounds; a migration may take longer.
    await connection.execute('set local statement_timeout = 0', [], 'run', trx);
    return orm.migrator.up({ transaction: trx });
  });
  return applied.map((m) => m.name);
}

/** 55P03 lock_not_available, as the driver or the ORM wrapping it reports it. */
const LOCK_NOT_AVAILABLE: ReadonlySet<string> = new Set(['55P03']);

function isLockTimeout(error: unknown): boolean {
  return postgresErrorOf(error, LOCK_NOT_AVAILABLE) !== null;
}
