import { NatsTransport } from '../../shared/bus/nats-transport.js';
import type { BusTransport } from '../../shared/bus/transport.js';
import type { Registry } from 'prom-client';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/logger.js';
import { MemoryRateLimitStore } from '../../shared/rate-limit/memory-rate-limit-store.js';
import { NatsKvRateLimitStore } from '../../shared/rate-limit/nats-kv-rate-limit-store.js';
import { rateLimitBucketOf } from '../../shared/rate-limit/rate-limit-bucket.js';
import type { RateLimitStore } from '../../shared/rate-limit/rate-limit-store.js';
import type { GatewayRateLimits } from './rate-limit-middleware.js';
import { RateLimiter } from './rate-limiter.js';
import { storeUnavailableCounter } from './store-failure.js';

/** Keys live two windows, long enough for the window they count. */
const KEY_TTL_MS = 120_000;

/**
 * The limits from configuration, all counted in one store: over NATS, a JetStream
 * bucket that every gateway shares; in the embedded default (one process), memory.
 */
export function gatewayRateLimits(transport: BusTransport, config: Config, log: Logger, metrics: Registry): GatewayRateLimits {
  let store: RateLimitStore = new MemoryRateLimitStore();
  if (transport instanceof NatsTransport) {
    const shared = new NatsKvRateLimitStore(() => transport.keyValue(rateLimitBucketOf(config.busNamespace), { ttlMs: KEY_TTL_MS, replicas: config.natsKvReplicas }));
    shared.openNow((error) => log.error({ err: error }, 'rate-limit bucket not opened; trying again'));
    store = shared;
  }
  const onStoreFailure = { policy: config.rateLimits.storeFailure, decided: storeUnavailableCounter(metrics) };
  const limiter = (kind: string, perMinute: number): RateLimiter | null => (perMinute > 0 ? new RateLimiter(kind, perMinute, store, log, onStoreFailure) : null);
  return {
    token: limiter('token', config.rateLimits.tokenPerMinute),
    grant: limiter('grant', config.rateLimits.grantPerMinute),
    session: limiter('session', config.rateLimits.sessionPerMinute),
    signIn: limiter('sign-in', config.rateLimits.signInPerMinute),
    failedAuth: limiter('failed-auth', config.rateLimits.failedAuthPerMinute),
  };
}
