import type { RequestHandler } from 'express';
import { InvalidRequestError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { REFUSAL_HEADERS } from './public-client-authentication.js';

/**
 * The token and revocation endpoints take a form (RFC 6749 §3.2, RFC 7009 §2.1). A body of
 * another type (JSON, the usual mistake) is left unparsed, and the SDK's handler then
 * answered "Invalid input: expected object, received undefined"; this says what the body
 * must be instead. Runs after the form parser, ahead of the SDK's handler and its CORS.
 */
export function formBodyRequired(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST' || req.body !== undefined) return next();
    const sent = req.get('content-type');
    const what = req.is('application/x-www-form-urlencoded') ? 'it has no body' : `its Content-Type is ${sent ? sent.slice(0, 100) : 'missing'}`;
    const error = new InvalidRequestError(`The request body must be a form (Content-Type: application/x-www-form-urlencoded) of the parameters; ${what}.`);
    res.status(400).set(REFUSAL_HEADERS).json(error.toResponseObject());
  };
}
