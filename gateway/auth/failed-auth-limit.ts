import { clientAddressKey } from '../rate-limit/client-address-key.js';
import { RateLimitRefusedError } from '../rate-limit/rate-limit-headers.js';
import { WINDOW_MS, type RateLimiter } from '../rate-limit/rate-limiter.js';

/**
 * How long a credential (API token or console session) found valid goes on passing its
 * address's block: a shared office or NAT behind which one client loops on a revoked token
 * must not lock out everyone else there. Only the refusal before the lookup is skipped.
 */
export const RECENTLY_VALID_MS = 5 * 60_000;

/**
 * Refused API tokens (and unknown console session cookies) per client IP, counted in the limiter every gateway shares. Once an
 * address is over the limit, this gateway refuses its unknown tokens with a 429 until the
 * window ends, before any bus call or lookup: guessing or flooding costs the service nothing.
 */
export class FailedAuthLimit {
  /** Addresses (their {@link clientAddressKey}) over the limit, and when their window ends. */
  private readonly blockedUntil = new Map<string, number>();

  constructor(private readonly limiter: RateLimiter) {}

  /** Throws a 429 (with the RateLimit-* headers of the limit) while `ip` is over the limit. */
  check(ip: string, now = Date.now()): void {
    const key = clientAddressKey(ip);
    const until = this.blockedUntil.get(key);
    if (until === undefined) return;
    if (until <= now) {
      this.blockedUntil.delete(key);
      return;
    }
    throw new RateLimitRefusedError({ allowed: false, limit: this.limiter.limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil((until - now) / 1000)) });
  }

  /** Counts one refused token from `ip`; throws a 429 when that is one too many. */
  async record(ip: string): Promise<void> {
    const key = clientAddressKey(ip);
    const verdict = await this.limiter.take(key);
    if (!verdict || verdict.allowed) return;
    if (this.blockedUntil.size >= 10_000) this.forgetExpired();
    this.blockedUntil.set(key, (Math.floor(Date.now() / WINDOW_MS) + 1) * WINDOW_MS);
    throw new RateLimitRefusedError(verdict);
  }

  private forgetExpired(now = Date.now()): void {
    for (const [ip, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(ip);
  }
}
