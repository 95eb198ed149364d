import pg from 'pg';

/**
 * Makes a race deterministic: runs `statements` in a transaction of its own (the other side
 * of the race, holding its row locks), starts `request`, waits until the request waits for
 * those locks (or settles without waiting), runs `thenStatements` (the rest of the other
 * side, which may now wait for the request) and `meanwhile` (what else to do while it waits),
 * then commits. `waited` says whether it waited;
 * `holderError` is what failed the other side (e.g. chosen as a deadlock's victim), which then
 * rolls back.
 */
export async function whileHeld<T>(
  url: string,
  statements: { sql: string; params?: unknown[] }[],
  request: () => Promise<T>,
  thenStatements: { sql: string; params?: unknown[] }[] = [],
  meanwhile?: () => Promise<void>,
): Promise<{ result: T; waited: boolean; holderError?: Error }> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query('begin');
    for (const { sql, params } of statements) await holder.query(sql, params);
    const pid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    let settled = false;
    const pending = request().finally(() => (settled = true));
    pending.catch(() => undefined); // awaited below; a rejection must not count as unhandled meanwhile
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    let waited = false;
    try {
      // Up to 20 s: on a slow, shared machine the request can take seconds to reach Postgres.
      for (let i = 0; i < 1000 && !settled && !waited; i++) {
        const rows = await watcher.query('select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [pid]);
        waited = rows.rowCount !== 0;
        if (!waited) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await watcher.end();
    }
    let holderError: Error | undefined;
    try {
      await meanwhile?.();
      for (const { sql, params } of thenStatements) await holder.query(sql, params);
    } catch (error) {
      holderError = error as Error;
    }
    await holder.query(holderError ? 'rollback' : 'commit');
    return { result: await pending, waited, ...(holderError ? { holderError } : {}) };
  } finally {
    await holder.end();
  }
}
