import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { CrmError } from '../../shared/errors.js';
import { IdempotencyKey } from '../../shared/contracts/common.js';
import { textField } from './form-fields.js';

/**
 * A key for a form that creates a record, sent with it as a hidden field: the form sent twice (a
 * double click, a resent POST) replays the first creation instead of making a second record. A
 * refused creation stores nothing, not even the key, so the corrected form sends the same one.
 */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/** The form's key, if it is one the API would take; else the call goes without one. */
export function idempotencyKeyOfForm(req: Request): string | undefined {
  const parsed = IdempotencyKey.safeParse(textField(req, 'idempotency_key', 300));
  return parsed.success ? parsed.data : undefined;
}

/** The codes a creating form answers with the form again, besides its own refusals: see {@link afterRefusal}. */
export const FORM_AGAIN_CODES = ['idempotency_key_reused', 'missing_scope'] as const;

/**
 * The key and message of a creating form shown again after `error`. The key was used before with
 * other values when the form came back from the history (a browser restores hidden fields) and
 * was changed: a new key, so sending the form again creates what it now says.
 */
export function afterRefusal(error: CrmError, key: string | undefined, message: () => string): { idempotencyKey: string; error: string } {
  if (error.code === 'idempotency_key_reused') {
    return { idempotencyKey: newIdempotencyKey(), error: 'This form was sent before with other values, and that record was created. Check the values and send the form again to create another.' };
  }
  return { idempotencyKey: key ?? newIdempotencyKey(), error: message() };
}
