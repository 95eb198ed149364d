import type { Orm } from '../shared/db/orm.js';
import type { Logger } from '../shared/logger.js';
import { databaseRefusal } from './database-refusal.js';

/**
 * Stops a starting service that Postgres refuses (a database or role that does not exist, a
 * wrong password): that does not mend itself, and a worker started anyway takes its share of
 * its queue group and fails every request it takes. A Postgres not reachable yet is only
 * logged (as is one still starting, or out of connection slots): the service answers 503
 * until it is, and reconnects then.
 */
export async function requireDatabaseAccepts(orm: Orm, log: Logger): Promise<void> {
  try {
    await orm.em.getConnection().execute('select 1');
  } catch (error) {
    if (databaseRefusal(error)?.lasting) throw error;
    log.warn({ err: error }, 'Postgres not reachable yet; requests are answered 503 until it is');
  }
}
