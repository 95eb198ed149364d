import type { Response } from 'express';
import type { CrmError, ErrorCode } from '../../shared/errors.js';
import { HTTP_STATUS } from '../errors/http-status.js';

const PARSE_ERROR = -32700;
const INTERNAL_ERROR = -32603;
/** The range JSON-RPC leaves to the server: every refusal of the transport itself. */
const SERVER_ERROR = -32000;

/** The JSON-RPC error code of each of our codes, for what a tool server refuses before the protocol runs. */
const JSON_RPC_CODE: Record<ErrorCode, number> = {
  validation_failed: SERVER_ERROR,
  invalid_json: PARSE_ERROR,
  invalid_cursor: SERVER_ERROR,
  unauthenticated: SERVER_ERROR,
  unknown_email: SERVER_ERROR,
  wrong_password: SERVER_ERROR,
  invalid_grant: SERVER_ERROR,
  invalid_scope: SERVER_ERROR,
  missing_scope: SERVER_ERROR,
  forbidden: SERVER_ERROR,
  not_found: SERVER_ERROR,
  phone_taken: SERVER_ERROR,
  conflict: SERVER_ERROR,
  idempotency_key_reused: SERVER_ERROR,
  payload_too_large: SERVER_ERROR,
  unsupported_media_type: SERVER_ERROR,
  method_not_allowed: SERVER_ERROR,
  not_acceptable: SERVER_ERROR,
  precondition_failed: SERVER_ERROR,
  rate_limited: SERVER_ERROR,
  unavailable: SERVER_ERROR,
  internal: INTERNAL_ERROR,
};

/** A JSON-RPC error response (no request id is known yet), with the HTTP status of its code. */
export function sendJsonRpcError(res: Response, error: CrmError): void {
  res.status(HTTP_STATUS[error.code]).json({ jsonrpc: '2.0', error: { code: JSON_RPC_CODE[error.code], message: error.message }, id: null });
}
