import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/logger.js';
import type { RateLimitStore } from '../../shared/rate-limit/rate-limit-store.js';
import type { GatewayRateLimits } from './rate-limit-middleware.js';
import { RateLimiter } from './rate-limiter.js';

/** The three limits from configuration, all counted in one shared store. */
export function gatewayRateLimits(config: Config, store: RateLimitStore, log: Logger): GatewayRateLimits {
  const limiter = (kind: string, perMinute: number): RateLimiter | null => (perMinute > 0 ? new RateLimiter(kind, perMinute, store, log) : null);
  return {
    token: limiter('token', config.rateLimits.tokenPerMinute),
    grant: limiter('grant', config.rateLimits.grantPerMinute),
    signIn: limiter('sign-in', config.rateLimits.signInPerMinute),
  };
}
