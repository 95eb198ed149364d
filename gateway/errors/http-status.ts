import type { ErrorCode } from '../../shared/errors.js';

/** The one mapping from domain error codes to HTTP statuses. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_cursor: 400,
  unauthenticated: 401,
  unknown_email: 401,
  wrong_password: 401,
  invalid_grant: 400,
  invalid_scope: 400,
  missing_scope: 403,
  forbidden: 403,
  not_found: 404,
  phone_taken: 409,
  conflict: 409,
  idempotency_key_reused: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  method_not_allowed: 405,
  not_acceptable: 406,
  precondition_failed: 412,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};
