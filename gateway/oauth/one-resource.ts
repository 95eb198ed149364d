import type { RequestHandler } from 'express';
import { InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { REFUSAL_HEADERS } from './public-client-authentication.js';

/**
 * RFC 8707 lets a request name several resources; here a grant and its tokens are for one tool
 * server, so several are invalid_target (§2), which tells the client to ask for one, rather than
 * the invalid_request a parser gives a parameter that arrives as a list.
 */
export function requireOneResource(params: unknown): void {
  const resource = (params as Record<string, unknown> | null | undefined)?.resource;
  if (Array.isArray(resource)) {
    throw new InvalidTargetError(`resource was given ${resource.length} times: a grant is for one tool server, so name one`);
  }
}

/** The same at the token endpoint, whose form is parsed by then. */
export function oneResourceInForm(): RequestHandler {
  return (req, res, next) => {
    try {
      requireOneResource(req.body);
    } catch (error) {
      return res.status(400).set(REFUSAL_HEADERS).json((error as InvalidTargetError).toResponseObject());
    }
    next();
  };
}
