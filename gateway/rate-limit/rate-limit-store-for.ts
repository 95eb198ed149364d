import { NatsTransport } from '../../shared/bus/nats-transport.js';
import type { BusTransport } from '../../shared/bus/transport.js';
import type { Config } from '../../shared/config.js';
import { MemoryRateLimitStore } from '../../shared/rate-limit/memory-rate-limit-store.js';
import { NatsKvRateLimitStore } from '../../shared/rate-limit/nats-kv-rate-limit-store.js';
import { rateLimitBucketOf } from '../../shared/rate-limit/rate-limit-bucket.js';
import type { RateLimitStore } from '../../shared/rate-limit/rate-limit-store.js';

/** Keys live two windows, long enough for the window they count. */
const KEY_TTL_MS = 120_000;

/** Over NATS, counts are shared by every gateway in JetStream; the embedded default has one process. */
export function rateLimitStoreFor(transport: BusTransport, config: Pick<Config, 'busNamespace' | 'natsKvReplicas'>): RateLimitStore {
  if (transport instanceof NatsTransport) {
    return new NatsKvRateLimitStore(() => transport.keyValue(rateLimitBucketOf(config.busNamespace), { ttlMs: KEY_TTL_MS, replicas: config.natsKvReplicas }));
  }
  return new MemoryRateLimitStore();
}
