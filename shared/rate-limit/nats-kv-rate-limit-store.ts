import type { KV } from 'nats';
import type { RateLimitStore } from './rate-limit-store.js';

/** JetStream's error code for "the key changed since you read it". */
const WRONG_LAST_SEQUENCE = 10071;
const MAX_ATTEMPTS = 20;
const MAX_OPEN_RETRY_MS = 30_000;

/**
 * Counts in a NATS JetStream key-value bucket, shared by every gateway. Each lease is a
 * compare-and-set on the key's revision, so two gateways never hand out the same count.
 * Keys expire with the bucket's TTL (two windows), so the bucket never grows.
 */
export class NatsKvRateLimitStore implements RateLimitStore {
  private bucket: Promise<KV> | null = null;

  constructor(private readonly open: () => Promise<KV>) {}

  /**
   * Opens the bucket now rather than at the first counted request, so that a missing one is
   * made (by a tokens worker) and a foreign one reported as the gateway starts, not when a
   * limit is first counted (never, with every limit off).
   */
  openNow(onError: (error: unknown) => void, retryMs = 1_000): void {
    const opening = (this.bucket ??= this.open());
    opening.catch((error: unknown) => {
      if (this.bucket === opening) this.bucket = null;
      onError(error);
      // Until it opens (JetStream still starting, NATS restarting), not just at the next counted
      // request: with every limit off there is none, and the bucket would stay missing.
      setTimeout(() => this.openNow(onError, Math.min(retryMs * 2, MAX_OPEN_RETRY_MS)), retryMs).unref();
    });
  }

  async lease(key: string, want: number, limit: number): Promise<{ granted: number; used: number }> {
    try {
      const kv = await (this.bucket ??= this.open());
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const entry = await kv.get(key);
        const live = entry !== null && entry.operation === 'PUT';
        const used = live ? Number(entry.string()) || 0 : 0;
        const granted = Math.min(want, limit - used);
        if (granted <= 0) return { granted: 0, used };
        try {
          const value = new TextEncoder().encode(String(used + granted));
          if (live) await kv.update(key, value, entry.revision);
          else await kv.create(key, value);
          return { granted, used: used + granted };
        } catch (error) {
          if (!isConflict(error)) throw error;
        }
      }
      throw new Error(`rate limit key ${key} stayed contended for ${MAX_ATTEMPTS} attempts`);
    } catch (error) {
      // Opening failed, or the bucket is gone (e.g. a fresh NATS without its store): open it again next time.
      if (!isConflict(error)) this.bucket = null;
      throw error;
    }
  }
}

function isConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('api_error' in error)) return false;
  const api = error.api_error;
  return typeof api === 'object' && api !== null && 'err_code' in api && api.err_code === WRONG_LAST_SEQUENCE;
}
