import type { Request } from 'express';
import { PreconditionFailedError } from '../../shared/errors.js';

const READS = new Set(['GET', 'HEAD']);

/** Why the request's preconditions cannot hold, or null: RFC 9110 §13.1 evaluated for a resource without tags or dates. */
function failedPrecondition(req: Request): string | null {
  const write = !READS.has(req.method);
  // "*" holds for any record that exists (a missing one is the worker's 404); no tag matches when none is given out.
  const ifMatch = req.get('If-Match');
  if (ifMatch !== undefined && ifMatch.trim() !== '*') return 'If-Match names an entity tag, and this API gives its resources none, so none matches';
  // The standard would ignore it for a resource without a modification date; refused instead, as the client meant it to guard a write.
  if (write && ifMatch === undefined && req.get('If-Unmodified-Since') !== undefined) return 'If-Unmodified-Since cannot be checked: this API gives its resources no modification dates';
  // "*" on a write asks for no current representation, and the record (or the collection) has one; tags never match, so they hold.
  if (write && req.get('If-None-Match')?.trim() === '*') return 'If-None-Match: * asks that the resource not exist, and it does';
  return null;
}

/**
 * The REST API keeps no entity tags (ETag) or modification dates (Last-Modified), so a
 * precondition that needs one cannot hold, and the request is refused with 412 before
 * anything is done: ignored, `If-Match: "v1"` on a PATCH let through the write the client
 * meant to stop if someone else had changed the record first (RFC 9110 §13.1.1). What always
 * holds (`If-Match: *`, `If-None-Match` with tags on a write) is let through, and the
 * conditions of a cached read (`If-None-Match`, `If-Modified-Since`) are answered in full.
 */
export function refuseFailedPreconditions(req: Request): void {
  const reason = failedPrecondition(req);
  if (reason !== null) {
    throw new PreconditionFailedError(`${reason}, and nothing was done. Send the request without it: concurrent writes to different fields of a record do not overwrite each other, and on one field the last write wins.`);
  }
}
