/** The list envelope of every collection read (decisions.md, "REST"). */
export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  meta: { limit: number; has_more: boolean };
  links: { next: string | null };
}

export function listEnvelope<T>(
  page: { data: T[]; limit: number; has_more: boolean; next_cursor: string | null },
  next: string | null,
): ListEnvelope<T> {
  return { object: 'list', data: page.data, meta: { limit: page.limit, has_more: page.has_more }, links: { next } };
}

/**
 * The absolute URL of the next page: the same path and filters, the page size that
 * applied, and the cursor. Followed as given, it continues the same query.
 */
export function nextLink(baseUrl: string, path: string, query: Record<string, unknown>, cursor: string | null): string | null {
  if (!cursor) return null;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'cursor' || value === undefined || value === null) continue;
    params.set(key, value instanceof Date ? value.toISOString() : String(value));
  }
  params.set('cursor', cursor);
  return `${baseUrl}${path}?${params.toString()}`;
}
