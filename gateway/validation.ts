import type { Request } from 'express';
import { ZodObject, type z } from 'zod';
import { IdempotencyKey } from '../shared/contracts/common.js';
import { InvalidCursorError, ValidationError, validationErrorFrom } from '../shared/errors.js';
import { namesWithGuesses } from '../shared/nearest-parameter.js';

/** `value` as `schema` reads it, or the 400 that names the first offending parameter. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys' && issue.path.length === 0 && isRecord(value)) throw unknownNames('field', issue.keys, schema, value);
  throw validationErrorFrom(parsed.error);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A query string as `schema` reads it. A parameter given twice arrives as an array, which the
 * schema refuses as the wrong type; the 400 says what happened instead. Looked at only once
 * the schema has refused the query, so a valid request costs nothing more.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys' && issue.path.length === 0) throw unknownNames('query parameter', issue.keys, schema, query);
  const key = issue?.path[0];
  const value = typeof key === 'string' ? query[key] : undefined;
  if (typeof key === 'string' && Array.isArray(value)) throw new ValidationError(`${key} was given ${value.length} times: give each parameter once.`, key);
  // No links.next holds an empty or overlong cursor: it was edited, the code a client restarts its paging on.
  if (key === 'cursor') throw new InvalidCursorError();
  // `?q=` from a form left blank: said in words, where the schema would say "Too small: expected string to have >=1 characters".
  if (typeof key === 'string' && typeof value === 'string' && value.trim() === '' && issue?.code === 'too_small') {
    throw new ValidationError(`${key} is empty: give a value, or leave the parameter out.`, key);
  }
  throw validationErrorFrom(parsed.error);
}

/**
 * The 400 for query parameters or body fields the endpoint does not take: every one of them with
 * its nearest valid name, and the list of those it takes, so that all typos are fixed in one try.
 */
function unknownNames(kind: string, keys: string[], schema: z.ZodType, given: Record<string, unknown>): ValidationError {
  const known = schema instanceof ZodObject ? Object.keys(schema.shape as Record<string, unknown>) : [];
  const takes = known.length > 0 ? `it takes ${known.join(', ')}` : 'it takes none';
  return new ValidationError(`Unknown ${kind}${keys.length > 1 ? 's' : ''}: ${namesWithGuesses(keys, known, given, { recordFields: kind === 'field' })}; ${takes}.`, keys[0]);
}

export function parseBody<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  if (req.body === undefined || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
    throw new ValidationError('The request body must be a JSON object.');
  }
  return parseWith(schema, req.body);
}

/** `Idempotency-Key`, checked as {@link IdempotencyKey} says. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  const parsed = IdempotencyKey.safeParse(key);
  if (!parsed.success) throw new ValidationError(`Idempotency-Key ${parsed.error.issues[0]?.message ?? 'is not valid'}.`, 'Idempotency-Key');
  return parsed.data;
}
