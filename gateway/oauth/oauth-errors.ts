import {
  OAuthError,
  InvalidGrantError,
  InvalidScopeError,
  ServerError,
  TemporarilyUnavailableError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { CrmError, type ErrorCode } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { fromBodyParser } from '../errors/error-handler.js';
import { HTTP_STATUS } from '../errors/http-status.js';

export type OAuthErrorClass = new (message: string) => OAuthError;

/** RFC 7591 §3.2.2: a registration's redirect URI is refused with this code, not invalid_client_metadata. */
export class InvalidRedirectUriError extends OAuthError {
  static override errorCode = 'invalid_redirect_uri';
}

/**
 * Whether a refused parameter (its path, `redirect_uris.2`) is one of a registration's redirect
 * URIs, refused as invalid_redirect_uri; faults of the list itself (missing, empty, too long)
 * stay invalid_client_metadata.
 */
export function isRedirectUriEntry(path: readonly PropertyKey[]): boolean {
  return path[0] === 'redirect_uris' && path.length > 1;
}

/** The error of an endpoint for input that fails its contract, and another for some parameters. */
export interface InvalidInputErrors {
  otherwise: OAuthErrorClass;
  forParam(param: string): OAuthErrorClass | undefined;
}

/**
 * The OAuth error (RFC 6749, RFC 7591) that each of our codes becomes at the SDK's
 * endpoints (authorize, token, register, revoke); the SDK renders it as
 * {error, error_description}, a ServerError with 500 and any other with 400.
 * `validation_failed` depends on the endpoint, so its caller names it.
 */
const OAUTH_ERROR: Record<Exclude<ErrorCode, 'validation_failed'>, OAuthErrorClass> = {
  invalid_json: ServerError,
  invalid_cursor: ServerError,
  unauthenticated: ServerError,
  unknown_email: ServerError,
  wrong_password: ServerError,
  invalid_grant: InvalidGrantError,
  invalid_scope: InvalidScopeError,
  missing_scope: ServerError,
  forbidden: ServerError,
  not_found: ServerError,
  phone_taken: ServerError,
  conflict: ServerError,
  idempotency_key_reused: ServerError,
  payload_too_large: ServerError,
  unsupported_media_type: ServerError,
  method_not_allowed: ServerError,
  not_acceptable: ServerError,
  precondition_failed: ServerError,
  rate_limited: ServerError,
  unavailable: TemporarilyUnavailableError,
  internal: ServerError,
};

/**
 * A failure no OAuth error explains, logged here: the SDK's endpoints answer it with a bare
 * 500 and write no line, so a fault in them would otherwise leave no trace.
 */
export function unexplainedServerError(error: unknown, log: Logger): ServerError {
  log.error({ err: error }, 'OAuth endpoint failed');
  return new ServerError('Internal Server Error');
}

/**
 * What a failed bus call of the OAuth endpoints answers; anything but a domain error stays
 * unexplained (and is logged). `invalidInput` is the endpoint's error for input that fails its
 * contract (invalid_request at authorize and token, invalid_client_metadata at registration,
 * where a refused redirect URI is invalid_redirect_uri).
 */
export function oauthErrorFrom(error: unknown, invalidInput: OAuthErrorClass | InvalidInputErrors, log: Logger): OAuthError {
  if (!(error instanceof CrmError)) return unexplainedServerError(error, log);
  if (error.code === 'validation_failed') {
    if (typeof invalidInput === 'function') return new invalidInput(error.message);
    const param = error.details.param;
    const ErrorClass = (typeof param === 'string' && invalidInput.forParam(param)) || invalidInput.otherwise;
    return new ErrorClass(error.message);
  }
  return new OAUTH_ERROR[error.code](error.message);
}

/**
 * body-parser's refusal of an OAuth endpoint's body (too large, too many fields, another
 * charset, JSON that does not parse) as that endpoint's OAuth error, with the HTTP status
 * it has elsewhere: OAuth clients read `error` as a code (RFC 6749 §5.2, RFC 7591 §3.2.2),
 * not the REST API's envelope. Null for any other error.
 */
export function oauthBodyError(error: unknown, invalidBody: OAuthErrorClass): { status: number; error: OAuthError } | null {
  const refused = fromBodyParser(error);
  if (!refused) return null;
  // Its REST message says "UTF-8 JSON"; the token and revocation endpoints take forms.
  const message = refused.code === 'unsupported_media_type' ? 'The request body must be UTF-8.' : refused.message;
  return { status: HTTP_STATUS[refused.code], error: new invalidBody(message) };
}

/** The bearer-token errors (RFC 6750) a tool server answers with, by our code. */
export const BEARER_ERROR: Partial<Record<ErrorCode, 'invalid_token' | 'insufficient_scope'>> = {
  unauthenticated: 'invalid_token',
  missing_scope: 'insufficient_scope',
};

/** The JSON body beside a bearer challenge: the RFC 6750 error and why. */
export function bearerErrorBody(error: CrmError) {
  return { error: BEARER_ERROR[error.code], error_description: error.message };
}
