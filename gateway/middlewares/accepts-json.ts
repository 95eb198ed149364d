import type { RequestHandler } from 'express';
import { NotAcceptableError } from '../../shared/errors.js';

/**
 * Every answer of the API is JSON. A request whose Accept header allows no JSON (only
 * text/html, or application/json;q=0) is a 406 naming what the API sends, instead of a
 * 200 in a type the client said it cannot read. No Accept header, or any wildcard, is fine.
 * The 406 itself is in JSON: the one error shape, which every client of the API reads.
 */
export const acceptsJson: RequestHandler = (req, _res, next) => {
  if (req.headers.accept === undefined || req.accepts('application/json') !== false) return next();
  next(new NotAcceptableError(`This API answers only with application/json, which the Accept header (${req.headers.accept.slice(0, 100)}) does not allow.`));
};
