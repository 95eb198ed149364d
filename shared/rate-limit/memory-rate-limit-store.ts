import type { RateLimitStore } from './rate-limit-store.js';

/**
 * Counts in this process: for the embedded default, where one process is the whole
 * service. Keys end with their window (`….<window>`), so when the map grows, the keys
 * of past windows are dropped and the current window's counts kept.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly used = new Map<string, number>();
  private sweptFor = '';

  lease(key: string, want: number, limit: number): Promise<{ granted: number; used: number }> {
    // Once per window: a second sweep in the same window would find nothing to drop.
    if (this.used.size > 50_000 && this.sweptFor !== windowOf(key)) this.forgetOtherWindows(windowOf(key));
    const used = this.used.get(key) ?? 0;
    const granted = Math.max(0, Math.min(want, limit - used));
    this.used.set(key, used + granted);
    return Promise.resolve({ granted, used: used + granted });
  }

  private forgetOtherWindows(window: string): void {
    this.sweptFor = window;
    for (const key of this.used.keys()) if (windowOf(key) !== window) this.used.delete(key);
  }
}

function windowOf(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}
