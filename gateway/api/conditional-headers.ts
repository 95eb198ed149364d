import type { Request } from 'express';
import { IF_MATCH_HEADER, MAX_IF_MATCH_TAGS, MAX_VERSION_LENGTH, parseIfMatch } from '../../shared/contracts/entity-tags.js';
import { PreconditionFailedError, ValidationError } from '../../shared/errors.js';

const READS = new Set(['GET', 'HEAD']);

/** What If-Match asks: nothing (absent), any record ("*"), or one of these versions. A malformed one is a 400. */
export function ifMatchOf(req: Request): '*' | string[] | undefined {
  const header = req.get(IF_MATCH_HEADER);
  if (header === undefined) return undefined;
  const parsed = parseIfMatch(header);
  if (parsed === null) throw new ValidationError(`${IF_MATCH_HEADER} must be * or a list of entity tags in double quotes, e.g. "2026-01-31T09:30:00.000Z" as the ETag header gave it.`, IF_MATCH_HEADER);
  if (parsed === '*') return parsed;
  if (parsed.length > MAX_IF_MATCH_TAGS) throw new ValidationError(`${IF_MATCH_HEADER} may name at most ${MAX_IF_MATCH_TAGS} entity tags.`, IF_MATCH_HEADER);
  // A tag longer than any version this API gives matches none: left out, so that it fails as a stale tag does (412).
  return parsed.filter((version) => version.length <= MAX_VERSION_LENGTH);
}

/** Why the request's preconditions cannot hold, or null: RFC 9110 §13.1 evaluated for a resource without tags or dates. */
function failedPrecondition(req: Request, versioned: boolean): string | null {
  const write = !READS.has(req.method);
  // "*" holds for any record that exists (a missing one is the worker's 404). A versioned
  // record's tags are checked against it (by the worker, on a write); elsewhere no tag matches, as none is given out.
  // Elsewhere anything but "*" fails whatever it holds, malformed or not (a 412 as before tags were given out).
  const header = req.get(IF_MATCH_HEADER);
  if (!versioned && header !== undefined && header.trim() !== '*') return 'If-Match names an entity tag, and this endpoint gives none, so none matches';
  // The standard would ignore it for a resource without a modification date; refused instead, as the client meant it to guard a write.
  if (write && header === undefined && req.get('If-Unmodified-Since') !== undefined) return 'If-Unmodified-Since cannot be checked: this API gives its resources no modification dates (use If-Match with the ETag where one is given)';
  // "*" on a write asks for no current representation, and the record (or the collection) has one; tags never match, so they hold.
  if (write && req.get('If-None-Match')?.trim() === '*') return 'If-None-Match: * asks that the resource not exist, and it does';
  return null;
}

/**
 * Only contacts and deals (`versioned` endpoints) carry entity tags (ETag); no resource
 * carries a modification date (Last-Modified). A precondition that needs what the resource
 * does not have cannot hold, and the request is refused with 412 before anything is done:
 * ignored, `If-Match: "v1"` would let through the write the client meant to stop if someone
 * else had changed the record first (RFC 9110 §13.1.1). What always holds (`If-Match: *`,
 * `If-None-Match` with tags on a write) is let through, and the conditions of a cached read
 * (`If-None-Match`, `If-Modified-Since`) are answered in full.
 */
export function refuseFailedPreconditions(req: Request, versioned: boolean): void {
  const reason = failedPrecondition(req, versioned);
  if (reason !== null) {
    throw new PreconditionFailedError(`${reason}, and nothing was done. Send the request without it: concurrent writes to different fields of a record do not overwrite each other, and on one field the last write wins.`);
  }
}
