import type { RequestHandler } from 'express';
import { NotAcceptableError } from '../../shared/errors.js';

/**
 * Every answer of the API is JSON. A request whose Accept header allows no JSON (only
 * text/html, or application/json;q=0) is a 406 naming what the API sends, instead of a
 * 200 in a type the client said it cannot read. No Accept header, or any wildcard, is fine.
 * The 406 itself is in JSON: the one error shape, which every client of the API reads.
 */
export const acceptsJson: RequestHandler = (req, _res, next) => {
  const accept = req.headers.accept;
  // What nearly every client sends (curl and fetch: */*) passes without negotiating.
  if (accept === undefined || accept === '*/*' || accept === 'application/json' || req.accepts('application/json') !== false) return next();
  // The header is not repeated: no answer echoes arbitrary header text.
  next(new NotAcceptableError('This API answers only with application/json, which the Accept header does not allow: send Accept: application/json, or none.'));
};
