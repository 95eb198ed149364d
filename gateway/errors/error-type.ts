import { z } from 'zod';
import type { ErrorCode } from '../../shared/errors.js';

export const ErrorType = z.enum(['invalid_request_error', 'authentication_error', 'permission_error', 'rate_limit_error', 'api_error']);
export type ErrorType = z.infer<typeof ErrorType>;

/** The `type` of a REST error body, by code: what kind of fix the caller needs. */
export const ERROR_TYPE: Record<ErrorCode, ErrorType> = {
  validation_failed: 'invalid_request_error',
  invalid_json: 'invalid_request_error',
  invalid_cursor: 'invalid_request_error',
  unauthenticated: 'authentication_error',
  unknown_email: 'authentication_error',
  wrong_password: 'authentication_error',
  invalid_grant: 'invalid_request_error',
  invalid_scope: 'invalid_request_error',
  missing_scope: 'permission_error',
  forbidden: 'permission_error',
  not_found: 'invalid_request_error',
  phone_taken: 'invalid_request_error',
  conflict: 'invalid_request_error',
  idempotency_key_reused: 'invalid_request_error',
  payload_too_large: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  method_not_allowed: 'invalid_request_error',
  not_acceptable: 'invalid_request_error',
  precondition_failed: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  unavailable: 'api_error',
  internal: 'api_error',
};
