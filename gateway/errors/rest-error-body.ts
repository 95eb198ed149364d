import type { CrmError } from '../../shared/errors.js';
import { ERROR_TYPE } from './error-type.js';

/** The REST error envelope: {"error":{type,code,message,param?,required_scope?,existing_id?,retry_after?,request_id}}. */
export function restErrorBody(error: CrmError, requestId: string) {
  return { error: { type: ERROR_TYPE[error.code], ...error.toPayload(), request_id: requestId } };
}
