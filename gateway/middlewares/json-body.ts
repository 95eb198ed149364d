import express, { type RequestHandler } from 'express';
import { UnsupportedMediaTypeError } from '../../shared/errors.js';

export const RESERVED_KEY_MESSAGE = 'The request body uses "__proto__" as a key, which is never accepted.';

/**
 * JSON.parse keeps `__proto__` as an ordinary key, but the validators drop it without a
 * word and plain objects further on would take it as their prototype: such a body is
 * refused as a whole, with a message that says why.
 */
export function refuseProtoKey(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new SyntaxError(RESERVED_KEY_MESSAGE);
  return value;
}

/** Parses JSON bodies up to `limit`; anything else on a write is a 415. */
export function jsonBody(limit: string): RequestHandler[] {
  const parse = express.json({ limit, strict: true, type: ['application/json', 'application/*+json'], reviver: refuseProtoKey });
  const requireJson: RequestHandler = (req, _res, next) => {
    if (req.method === 'POST' || req.method === 'PATCH' || req.method === 'PUT') {
      if (!req.is(['application/json', 'application/*+json'])) {
        next(new UnsupportedMediaTypeError('Send the request body as JSON with Content-Type: application/json.'));
        return;
      }
    }
    next();
  };
  return [requireJson, parse];
}
