import type { RequestHandler } from 'express';
import { TemporarilyUnavailableError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { UnavailableError } from '../../shared/errors.js';


/**
 * The SDK's token, revocation and registration handlers answer every OAuth error but
 * server_error with 400, temporarily_unavailable too. A client reads a 400 at refresh as a
 * refresh token refused and drops its tokens; an outage of the tokens worker is a 503 with
 * Retry-After instead, as the tool servers answer one. Installed in front of
 * the SDK's handler, it changes only the status and headers of that one answer.
 */
export function unavailableAs503(): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const error = (body as { error?: unknown } | null | undefined)?.error;
      if (res.statusCode === 400 && error === TemporarilyUnavailableError.errorCode) res.status(503).set('Retry-After', String(UnavailableError.RETRY_AFTER_SECONDS));
      return json(body);
    };
    next();
  };
}
