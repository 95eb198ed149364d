import { postgresErrorOf } from '../../shared/db/sql.js';

/**
 * SQLSTATEs of a transaction Postgres rolled back to settle a conflict with another one:
 * 40P01 (deadlock detected, e.g. two imports inserting shared phones in another order) and
 * 40001 (serialization failure). Nothing of it was committed, so sent again it can succeed.
 */
const CONFLICT_STATES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** Whether the error is such a rollback, also when wrapped (`cause`) by the ORM or a transaction. */
export function isTransactionConflict(error: unknown): boolean {
  return postgresErrorOf(error, CONFLICT_STATES) !== null;
}
