import { createHash } from 'node:crypto';

/**
 * Console session cookies this gateway found valid lately, kept by SHA-256 (never the cookie
 * itself): an address over the limit of unknown cookies is refused without a lookup, but a
 * member already signed in from behind it (a shared office address) keeps working, as a
 * cached API token does. Only the refusal before the lookup is skipped, never the lookup.
 */
export class RecentSessions {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly max = 10_000,
  ) {}

  has(token: string, now = Date.now()): boolean {
    const until = this.seen.get(digest(token));
    return until !== undefined && until > now;
  }

  add(token: string, now = Date.now()): void {
    const key = digest(token);
    this.seen.delete(key);
    // The oldest entry goes first: a Map keeps insertion order.
    if (this.seen.size >= this.max) this.seen.delete(this.seen.keys().next().value as string);
    this.seen.set(key, now + this.ttlMs);
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
