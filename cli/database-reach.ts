import { ConfigError } from '../shared/config.js';
import type { Orm } from '../shared/db/orm.js';

/** pg's words when no connection came within connectionTimeoutMillis (a host that drops packets), or the connection was cut as it opened. */
const CONNECT_TIMEOUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout|Connection terminated unexpectedly/i;

/** The operating system's or the driver's error of not reaching the server at all, in the error or what it wraps. */
function unreachableIn(error: unknown, depth = 0): Error | null {
  if (!(error instanceof Error) || depth > 5) return null;
  if (typeof (error as NodeJS.ErrnoException).syscall === 'string' || CONNECT_TIMEOUT.test(error.message)) return error;
  return unreachableIn(error.cause, depth + 1);
}

/**
 * Reaches the database once before a command acts. "connect ECONNREFUSED 127.0.0.1:5432" alone
 * leaves the operator to guess which service that is (NATS, the gateway?): a Postgres given by
 * DATABASE_URL that does not answer is named, without the URL's password. Postgres refusing
 * the connection is left to databaseRefusal, which names the SQLSTATE.
 */
export async function reachDatabase(orm: Orm, url: string, embedded: boolean): Promise<void> {
  try {
    await orm.em.getConnection().execute('select 1');
  } catch (error) {
    const unreachable = embedded ? null : unreachableIn(error);
    if (!unreachable) throw error;
    const { host } = new URL(url);
    throw new ConfigError(`Postgres at ${host} (DATABASE_URL) is not reachable: ${unreachable.message}. Start it, or correct DATABASE_URL. Nothing was changed.`);
  }
}
