import type { Logger } from '../../shared/logger.js';
import { MemoryRateLimitStore } from '../../shared/rate-limit/memory-rate-limit-store.js';
import type { RateLimitStore } from '../../shared/rate-limit/rate-limit-store.js';
import type { StoreFailureHandling } from './store-failure.js';

/** The length of a window; RateLimit-Policy announces it. */
export const WINDOW_MS = 60_000;
/** Leases of at least this many counts (limits of 151 a minute and more) are renewed ahead. */
const PREFETCH_MIN_LEASE = 4;
/** After the store fails, requests are decided without it this long before it is tried again, so they do not each wait on it. */
export const STORE_RETRY_MS = 5_000;
/**
 * The longest a request waits on the store for a lease. A lease is a few JetStream calls,
 * each with a 5 s timeout, and one sent as NATS restarts is only answered by that timeout:
 * without a bound, a request then waited 5 s or more before its own work began. Past it,
 * the request is decided as if the store were unreachable (RATE_LIMIT_STORE_FAILURE).
 */
export const STORE_WAIT_MS = 1_000;
/** At most one warning a minute while the store stays unreachable. */
const WARN_EVERY_MS = 60_000;

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
  private lastWarning = -Infinity;
  private sweptWindow = -1;
  private storeDownUntil = 0;
  /** This gateway's own count, for RATE_LIMIT_STORE_FAILURE=local. */
  private local: RateLimiter | null = null;

  constructor(
    readonly kind: string,
    readonly limit: number,
    private readonly store: RateLimitStore,
    private readonly log: Logger,
    private readonly onStoreFailure: StoreFailureHandling = { policy: 'local', decided: null },
  ) {
    this.leaseSize = Math.max(1, Math.min(100, Math.ceil(limit / 50)));
  }

  /**
   * Counts one request for `id` when that needs no store: a lease holds counts, or the
   * window is spent. Undefined when the store must be asked ({@link take}). Requests that
   * a held lease covers are decided without waiting, not even for a promise.
   */
  takeHeld(id: string): RateLimitVerdict | undefined {
    const now = Date.now();
    if (now < this.storeDownUntil) return undefined;
    const window = Math.floor(now / WINDOW_MS);
    const state = this.stateOf(id, window);
    if (state.available === 0 && !state.exhausted) return undefined;
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    return this.decide(id, state, resetSeconds);
  }

  /** Counts one request for `id`; null when no limit applies (the store is unreachable and the policy is `open`). */
  async take(id: string): Promise<RateLimitVerdict | null> {
    const held = this.takeHeld(id);
    if (held) return held;
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    if (now < this.storeDownUntil) return this.withoutStore(id, resetSeconds);
    const state = this.stateOf(id, window);

    while (state.available === 0 && !state.exhausted) {
      // Checked on each pass: a lease that failed while this request waited marks the store down.
      if (Date.now() < this.storeDownUntil) return this.withoutStore(id, resetSeconds);
      // One lease at a time per key: concurrent requests wait for it instead of each leasing.
      state.pending ??= this.refill(id, state).finally(() => (state.pending = null));
      try {
        await withinStoreWait(state.pending);
      } catch (error) {
        // A lease that is only slow decides this request without the store, but does not mark
        // the store down: it may still land, and its counts serve the requests after it. A
        // lease that fails marks the store down itself (a stalled one too, when it fails).
        if (error instanceof StoreStalledError) this.warn(error);
        return this.withoutStore(id, resetSeconds);
      }
    }
    return this.decide(id, state, resetSeconds);
  }

  private decide(id: string, state: KeyState, resetSeconds: number): RateLimitVerdict {
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
    // A failed lease has marked the store down (refill); requests waiting on it see that.
    state.pending = this.refill(id, state)
      .catch(() => undefined)
      .finally(() => (state.pending = null));
  }

  /** Leases counts for `id`; a lease that fails marks the store down, whoever asked for it. */
  private async refill(id: string, state: KeyState): Promise<void> {
    const { granted, used } = await this.store.lease(`${this.kind}.${storeKeyPart(id)}.${state.window}`, this.leaseSize, this.limit).catch((error: unknown) => {
      this.storeFailed(error);
      throw error;
    });
    state.available += granted;
    state.used = used;
    if (granted === 0) state.exhausted = true;
  }

  private forgetBefore(window: number): void {
    this.sweptWindow = window;
    for (const [id, state] of this.keys) if (state.window < window) this.keys.delete(id);
  }

  /**
   * The shared store failed: by default each gateway counts alone against the same limit
   * (N gateways then allow up to N times it, never unlimited); `open` lets requests
   * through, `closed` refuses them until the store answers again.
   */
  private withoutStore(id: string, resetSeconds: number): Promise<RateLimitVerdict | null> {
    const { policy, decided } = this.onStoreFailure;
    decided?.inc({ limiter: this.kind, policy });
    if (policy === 'open') return Promise.resolve(null);
    if (policy === 'closed') return Promise.resolve({ allowed: false, limit: this.limit, remaining: 0, resetSeconds: Math.min(resetSeconds, STORE_RETRY_MS / 1000) });
    this.local ??= new RateLimiter(this.kind, this.limit, new MemoryRateLimitStore(), this.log);
    return this.local.take(id);
  }

  private storeFailed(error: unknown): void {
    this.storeDownUntil = Date.now() + STORE_RETRY_MS;
    this.warn(error);
  }

  private warn(error: unknown): void {
    // Loudly, but once a minute, not once per request; the metric counts every request.
    if (Date.now() - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = Date.now();
    const policy = this.onStoreFailure.policy;
    const what = { local: "counting this gateway's requests alone", open: 'letting requests through', closed: 'refusing requests' }[policy];
    this.log.warn({ err: error, limiter: this.kind, policy }, `rate limit store unreachable; ${what}`);
  }
}

class StoreStalledError extends Error {
  override name = 'StoreStalledError';
  constructor() {
    super(`the rate limit store did not answer within ${STORE_WAIT_MS} ms`);
  }
}

/** The lease, or a StoreStalledError after STORE_WAIT_MS; the lease itself goes on, and its counts are kept when it lands. */
function withinStoreWait(lease: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StoreStalledError()), STORE_WAIT_MS);
  });
  return Promise.race([lease, stalled]).finally(() => clearTimeout(timer));
}

/** Store keys allow letters, digits, - and _ safely; anything else (an IPv6 address) is encoded. */
function storeKeyPart(id: string): string {
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : `b64-${Buffer.from(id).toString('base64url')}`;
}
