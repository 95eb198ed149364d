import { createHash } from 'node:crypto';

interface Entry<V> {
  value: V;
  until: number;
}

/**
 * A short-lived cache of positive authentication answers (at most 5 s, see config),
 * keyed by a SHA-256 of the credential so no plaintext is kept in memory.
 */
export class CredentialCache<V extends { tokenId?: string }> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  static keyOf(credential: string): string {
    return createHash('sha256').update(credential).digest('base64url');
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, notAfter?: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const until = Math.min(Date.now() + this.ttlMs, notAfter ?? Number.POSITIVE_INFINITY);
    this.entries.set(key, { value, until });
  }

  /** Drops one credential's entry, e.g. once it is refused. */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry for a revoked token at once. */
  evictToken(tokenId: string): void {
    for (const [key, entry] of this.entries) if (entry.value.tokenId === tokenId) this.entries.delete(key);
  }
}
