/** A client metadata document is reused for at most a day, whatever its server says. */
export const MAX_CACHE_MS = 24 * 3_600_000;

/**
 * How long a fetched document may be reused, from its `Cache-Control`: `max-age`, bounded
 * by {@link MAX_CACHE_MS}; nothing for `no-store`, `no-cache` or no header at all, so a
 * client that says nothing is fetched again at each use.
 */
export function cacheLifetimeMs(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl.toLowerCase().split(',').map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.map((d) => /^max-age\s*=\s*"?(\d+)"?$/.exec(d)?.[1]).find((v) => v !== undefined);
  if (maxAge === undefined) return 0;
  return Math.min(Number(maxAge) * 1000, MAX_CACHE_MS);
}
