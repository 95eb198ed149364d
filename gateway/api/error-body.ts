import { z } from 'zod';
import { Scope } from '../../shared/auth/scopes.js';
import { ErrorCode, ErrorReason } from '../../shared/errors.js';
import { ErrorType } from '../errors/error-type.js';

/** The one error shape of every non-2xx response. */
export const ErrorBody = z
  .object({
    error: z.object({
      type: ErrorType,
      code: ErrorCode,
      message: z.string(),
      param: z.string().optional().describe('The parameter or field at fault'),
      required_scope: Scope.optional().describe('On missing_scope: exactly the scope that is missing'),
      existing_id: z.string().optional().describe('The record already holding what was asked for: on phone_taken the contact with the phone; on a conflict over a custom field key the field holding it, over a pipeline name that pipeline'),
      retry_after: z.number().int().optional(),
      reason: ErrorReason.optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: 'Error' });
