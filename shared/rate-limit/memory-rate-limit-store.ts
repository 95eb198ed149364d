import type { RateLimitStore } from './rate-limit-store.js';

/**
 * Counts in this process: for the embedded default, where one process is the whole
 * service. Keys carry their window, so old ones are dropped when the map grows.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly used = new Map<string, number>();

  lease(key: string, want: number, limit: number): Promise<{ granted: number; used: number }> {
    if (this.used.size > 50_000) this.used.clear();
    const used = this.used.get(key) ?? 0;
    const granted = Math.max(0, Math.min(want, limit - used));
    this.used.set(key, used + granted);
    return Promise.resolve({ granted, used: used + granted });
  }
}
