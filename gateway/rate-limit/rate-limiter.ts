import type { Logger } from '../../shared/logger.js';
import type { RateLimitStore } from '../../shared/rate-limit/rate-limit-store.js';

/** The length of a window; RateLimit-Policy announces it. */
export const WINDOW_MS = 60_000;
/** Leases of at least this many counts (limits of 151 a minute and more) are renewed ahead. */
const PREFETCH_MIN_LEASE = 4;

export interface RateLimitVerdict {
  allowed: boolean;
  limit: number;
  /** What is left in this window, across every gateway. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

interface KeyState {
  window: number;
  /** Counts this gateway holds from its leases and has not used yet. */
  available: number;
  /** The shared count after this gateway's last lease. */
  used: number;
  exhausted: boolean;
  pending: Promise<void> | null;
}

/**
 * A fixed one-minute window per key (a token, a grant, an IP), counted in a store that
 * every gateway shares. A gateway leases a few counts at a time (a fiftieth of the limit,
 * at most 100), so the store sees one request per lease and a limit is never exceeded;
 * counts a gateway leased but did not use lapse with the window.
 */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();
  private readonly leaseSize: number;
  private lastWarning = 0;
  private sweptWindow = -1;

  constructor(
    readonly kind: string,
    readonly limit: number,
    private readonly store: RateLimitStore,
    private readonly log: Logger,
  ) {
    this.leaseSize = Math.max(1, Math.min(100, Math.ceil(limit / 50)));
  }

  /** Counts one request for `id`; null when the store cannot be reached (the request goes on). */
  async take(id: string): Promise<RateLimitVerdict | null> {
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    const state = this.stateOf(id, window);

    while (state.available === 0 && !state.exhausted) {
      // One lease at a time per key: concurrent requests wait for it instead of each leasing.
      state.pending ??= this.refill(id, state).finally(() => (state.pending = null));
      try {
        await state.pending;
      } catch (error) {
        this.warn(error);
        return null;
      }
    }
    if (state.available === 0) return { allowed: false, limit: this.limit, remaining: 0, resetSeconds };
    state.available--;
    this.prefetch(id, state);
    return { allowed: true, limit: this.limit, remaining: Math.max(0, this.limit - state.used + state.available), resetSeconds };
  }

  private stateOf(id: string, window: number): KeyState {
    let state = this.keys.get(id);
    if (!state || state.window !== window) {
      // One sweep per window drops every older one; another would find nothing to drop.
      if (this.keys.size > 10_000 && this.sweptWindow !== window) this.forgetBefore(window);
      state = { window, available: 0, used: 0, exhausted: false, pending: null };
      this.keys.set(id, state);
    }
    return state;
  }

  /**
   * Leases the next counts while a quarter of the current lease is left, so that a busy
   * key's requests do not wait on the store at each lease boundary. Only for leases of
   * PREFETCH_MIN_LEASE or more: with small limits, counts held ahead by one gateway would
   * be refused to another.
   */
  private prefetch(id: string, state: KeyState): void {
    if (this.leaseSize < PREFETCH_MIN_LEASE || state.exhausted || state.pending || state.available > this.leaseSize / 4) return;
    state.pending = this.refill(id, state)
      .catch((error: unknown) => this.warn(error))
      .finally(() => (state.pending = null));
  }

  private async refill(id: string, state: KeyState): Promise<void> {
    const { granted, used } = await this.store.lease(`${this.kind}.${storeKeyPart(id)}.${state.window}`, this.leaseSize, this.limit);
    state.available += granted;
    state.used = used;
    if (granted === 0) state.exhausted = true;
  }

  private forgetBefore(window: number): void {
    this.sweptWindow = window;
    for (const [id, state] of this.keys) if (state.window < window) this.keys.delete(id);
  }

  private warn(error: unknown): void {
    // Fail open, loudly but not once per request: the bus being down fails the request anyway.
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.log.warn({ err: error, limiter: this.kind }, 'rate limit store unreachable; letting requests through');
  }
}

/** Store keys allow letters, digits, - and _ safely; anything else (an IPv6 address) is encoded. */
function storeKeyPart(id: string): string {
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : `b64-${Buffer.from(id).toString('base64url')}`;
}
