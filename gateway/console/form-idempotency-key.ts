import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
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
