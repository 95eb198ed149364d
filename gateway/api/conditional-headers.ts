import type { Request } from 'express';
import { ValidationError } from '../../shared/errors.js';

/**
 * The REST API keeps no entity tags or modification dates for its resources, so a precondition
 * cannot be checked. Ignored, `If-Match: "v1"` on a PATCH let the write through that the client
 * meant to stop if someone else had changed the record first (RFC 9110 §13.1.1: a false If-Match
 * must not be performed); refused instead, as an Idempotency-Key where none is taken, so the
 * client learns before anything changes. If-None-Match and If-Modified-Since on a read only ask
 * for a 304, and a full 200 answers them correctly, so reads still take those.
 */
const ALWAYS_REFUSED = ['If-Match', 'If-Unmodified-Since'] as const;
const REFUSED_ON_WRITES = ['If-None-Match', 'If-Modified-Since'] as const;

export function refuseConditionalHeaders(req: Request): void {
  const read = req.method === 'GET' || req.method === 'HEAD';
  for (const header of read ? ALWAYS_REFUSED : [...ALWAYS_REFUSED, ...REFUSED_ON_WRITES]) {
    if (req.get(header) !== undefined) {
      throw new ValidationError(
        `${header} is not supported: the API has no entity tags or modification dates to check it against, and did nothing. Send the request without it (the last write to a field wins).`,
        header,
      );
    }
  }
}
