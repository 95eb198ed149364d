import { z } from 'zod';

/** The list envelope of every collection read; `extra`: fields a list adds (e.g. applied_range). */
export function listOf<T extends z.ZodType, E extends z.ZodRawShape = Record<never, never>>(item: T, id: string, extra?: E) {
  return z
    .object({
      object: z.literal('list'),
      data: z.array(item),
      meta: z.object({ limit: z.number().int(), has_more: z.boolean() }),
      links: z.object({
        next: z.string().nullable().describe('Absolute URL of the next page (same filters, with the cursor); null on the last page'),
      }),
      ...(extra ?? ({} as E)),
    })
    .meta({ id });
}

/** The list envelope with items of type T (gateway/api/response-body.ts builds it from the worker's bytes). */
export type ListEnvelope<T> = Omit<z.output<ReturnType<typeof listOf>>, 'data'> & { data: T[] };

/**
 * The absolute URL of the next page: the same path and filters, the page size that
 * applied, and the cursor. Followed as given, it continues the same query.
 */
export function nextLink(baseUrl: string, path: string, query: Record<string, unknown>, cursor: string | null): string | null {
  if (!cursor) return null;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'cursor' || value === undefined || value === null) continue;
    params.set(key, String(value));
  }
  params.set('cursor', cursor);
  return `${baseUrl}${path}?${params.toString()}`;
}
