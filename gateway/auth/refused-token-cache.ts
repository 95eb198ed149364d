import { CredentialCache } from './credential-cache.js';

/**
 * Tokens the tokens worker refused (unknown, revoked, expired), remembered for a few
 * seconds so that repeating one costs no bus call and no query. Such an answer never
 * turns positive (a new token is a new random secret), so no revocation event is needed.
 * Keyed like {@link CredentialCache}, by a SHA-256 of the token: no plaintext is kept.
 */
export class RefusedTokenCache {
  /** No token id: a refused token has none to evict by. */
  private readonly reasons: CredentialCache<{ reason: string; tokenId?: undefined }>;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.reasons = new CredentialCache(ttlMs, maxEntries);
  }

  /** Why the token was refused, if it was lately. */
  get(key: string): string | undefined {
    return this.reasons.get(key)?.reason;
  }

  set(key: string, reason: string): void {
    this.reasons.set(key, { reason });
  }
}
