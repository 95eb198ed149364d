import { postgresErrorOf } from '../../shared/db/sql.js';

/** 57014 query_canceled: the statement ran past `statement_timeout`, or an administrator cancelled it. */
const QUERY_CANCELED: ReadonlySet<string> = new Set(['57014']);

/**
 * Whether Postgres cancelled the request's statement, also when wrapped (`cause`). Its class
 * (57, operator intervention) otherwise reads as the database going away, which it did not.
 */
export function isStatementCancelled(error: unknown): boolean {
  return postgresErrorOf(error, QUERY_CANCELED) !== null;
}
