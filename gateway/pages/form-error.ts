import { CrmError, type ErrorCode } from '../../shared/errors.js';

/** Whether `error` is one of the codes a page answers on its own form (what was typed kept) rather than as an error page. */
export function crmErrorIn(error: unknown, codes: readonly ErrorCode[]): error is CrmError {
  return error instanceof CrmError && codes.includes(error.code);
}
