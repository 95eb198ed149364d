import { isoTimestamp } from '../../shared/db/sql.js';
import { entityTagOf } from '../../shared/contracts/entity-tags.js';
import { PreconditionFailedError } from '../../shared/errors.js';

/**
 * Refuses a write whose If-Match names none of the record's current version. Called on the
 * row locked for the write, in its transaction: no other write can come between the check
 * and the change (a check in the gateway could).
 */
export function requireExpectedVersion(kind: 'contact' | 'deal', id: string, current: { updated_at: string }, expected: string[] | undefined): void {
  if (expected === undefined) return;
  const version = isoTimestamp(current.updated_at);
  if (expected.includes(version)) return;
  throw new PreconditionFailedError(
    `If-Match names a version the ${kind} ${id} is no longer at (someone changed it since): its current ETag is ${entityTagOf({ updated_at: version })}. Nothing was changed: read the ${kind} again and make the change on what it is now.`,
  );
}
