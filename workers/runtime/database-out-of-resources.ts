import { postgresErrorOf } from '../../shared/db/sql.js';

/**
 * SQLSTATE class 53, insufficient resources: no free connection slot (53300), out of
 * memory (53200), disk full (53100), a configuration limit such as lock slots (53400). The
 * request did nothing wrong and nothing of it was committed; the same call can succeed once
 * the database has room again.
 */
const OUT_OF_RESOURCES: ReadonlySet<string> = new Set(['53000', '53100', '53200', '53300', '53400']);

/** Whether Postgres refused the request for want of resources, also when wrapped (`cause`) by the ORM or a transaction. */
export function isDatabaseOutOfResources(error: unknown): boolean {
  return postgresErrorOf(error, OUT_OF_RESOURCES) !== null;
}
