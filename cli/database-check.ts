import type { Orm } from '../shared/db/orm.js';

/** `ok` when Postgres answers a trivial query within 2 s; otherwise what went wrong. */
export async function databaseCheck(orm: Orm): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), 2_000)));
  const query = orm.em
    .getConnection()
    .execute('select 1')
    .then(
      () => 'ok',
      (error: unknown) => (error instanceof Error ? error.message : 'failed'),
    );
  const result = await Promise.race([query, timeout]);
  clearTimeout(timer);
  return result;
}
