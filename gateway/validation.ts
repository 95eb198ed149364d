import type { Request } from 'express';
import type { z } from 'zod';
import { ValidationError, validationErrorFrom } from '../shared/errors.js';

/** `value` as `schema` reads it, or the 400 that names the first offending parameter. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  return parsed.data;
}

export function parseBody<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  if (req.body === undefined || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
    throw new ValidationError('The request body must be a JSON object.');
  }
  return parseWith(schema, req.body);
}

/** `Idempotency-Key`: up to 255 visible ASCII characters. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ValidationError('Idempotency-Key must be 1 to 255 visible ASCII characters.', 'Idempotency-Key');
  }
  return key;
}
