import { z } from 'zod';

/** Page size for list reads: default 25, maximum 100 (decisions.md). */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export const PageLimit = z
  .number()
  .int('must be a whole number between 1 and 100')
  .min(1, 'must be between 1 and 100')
  .max(MAX_PAGE_SIZE, 'must be between 1 and 100');

/** The same limit as it arrives in a query string. */
export const PageLimitQuery = z.coerce
  .number({ error: 'must be a whole number between 1 and 100' })
  .int('must be a whole number between 1 and 100')
  .min(1, 'must be between 1 and 100')
  .max(MAX_PAGE_SIZE, 'must be between 1 and 100')
  .default(DEFAULT_PAGE_SIZE)
  .describe('Page size, 1 to 100 (default 25)');

export const Cursor = z.string().min(1).max(1024);

export const Timestamp = z.string().describe('ISO 8601 UTC timestamp');

/** A query-string timestamp filter (ISO 8601). */
export const TimestampQuery = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp, e.g. 2026-01-31T00:00:00Z' });

/** Text without control characters, trimmed. */
export function cleanText(max: number) {
  return z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !/\p{Cc}/u.test(s), { message: 'must not contain control characters' });
}

/** What a worker returns for one page of a list; the gateway wraps it in the list envelope. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    limit: z.number().int(),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  });
}

export const Empty = z.object({}).strict();

/** A boolean query parameter: true or false, nothing else. */
export const BooleanQuery = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
