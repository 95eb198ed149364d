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

/**
 * Charset labels that mean UTF-8 (`utf8`) or a subset of it (`us-ascii`), which clients send
 * and the JSON parser refuses with a 415 because they do not begin with "utf-".
 */
const UTF8_LABEL = /;\s*charset\s*=\s*"?(?:utf8|us-ascii|ascii)"?\s*(?=;|$)/i;

/**
 * Parses JSON bodies up to `limit`; a body of any other type is a 415, whatever the method: a
 * DELETE's text body is refused like a POST's, never ignored while the DELETE goes ahead.
 * A request with no body at all passes (an action such as rotate-secret needs none); a route
 * that needs one answers 400.
 */
export function jsonBody(limit: string): RequestHandler[] {
  const parse = express.json({ limit, strict: true, type: ['application/json', 'application/*+json'], reviver: refuseProtoKey });
  const requireJson: RequestHandler = (req, _res, next) => {
    // null: no body at all; false: a body that is not JSON. An empty one (Content-Length: 0, as fetch sends a bodiless POST) is none either.
    const empty = req.headers['content-length'] === '0';
    if (!empty && req.is(['application/json', 'application/*+json']) === false) {
      next(new UnsupportedMediaTypeError('Send the request body as JSON with Content-Type: application/json.'));
      return;
    }
    // A body labelled with one of those is read as the UTF-8 it is (RFC 8259: JSON is UTF-8).
    const type = req.headers['content-type'];
    if (type !== undefined && UTF8_LABEL.test(type)) req.headers['content-type'] = type.replace(UTF8_LABEL, '; charset=utf-8');
    next();
  };
  return [requireJson, parse];
}
