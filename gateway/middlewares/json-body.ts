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

/** The charset a Content-Type names, or undefined. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * The parser decodes any charset named utf-… (UTF-16, UTF-32) and refuses the others with a 415;
 * JSON is UTF-8 (RFC 8259 §8.1), and a UTF-8 body labelled UTF-16 was read as CJK characters and
 * answered "not a JSON object". Such a label is refused as the parser refuses latin1 (same
 * error, so the error handler words both alike).
 */
function charsetOtherThanUtf8(type: string): Error | null {
  const charset = CHARSET.exec(type)?.[1];
  if (charset === undefined || charset.toLowerCase() === 'utf-8') return null;
  return Object.assign(new Error(`unsupported charset "${charset.toUpperCase()}"`), { type: 'charset.unsupported', charset, status: 415 });
}

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
    const json = empty ? null : req.is(['application/json', 'application/*+json']);
    if (json === false) {
      next(new UnsupportedMediaTypeError('Send the request body as JSON with Content-Type: application/json.'));
      return;
    }
    // A body labelled with one of those is read as the UTF-8 it is (RFC 8259: JSON is UTF-8).
    const type = req.headers['content-type'];
    if (type !== undefined && UTF8_LABEL.test(type)) req.headers['content-type'] = type.replace(UTF8_LABEL, '; charset=utf-8');
    // Only a body is read in a charset: a bodiless request's Content-Type says nothing.
    next((json !== null && charsetOtherThanUtf8(req.headers['content-type'] ?? '')) || undefined);
  };
  return [requireJson, parse];
}
