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
  const tag = entityTagOf({ updated_at: version });
  // No version named at all: the tags were weak (or longer than any given out), so "someone changed it since" would send the client to read again and fail the same way.
  if (expected.length === 0) {
    throw new PreconditionFailedError(
      `If-Match names no version the ${kind} ${id} could be at: a weak tag (W/"…") never matches, the comparison being strong, nor does one longer than any ETag given out. Send the ETag as given: its current one is ${tag}. Nothing was changed.`,
    );
  }
  throw new PreconditionFailedError(
    `If-Match names a version the ${kind} ${id} is no longer at (someone changed it since): its current ETag is ${tag}. Nothing was changed: read the ${kind} again and make the change on what it is now.`,
  );
}
