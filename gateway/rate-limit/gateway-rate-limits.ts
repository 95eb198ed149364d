import type { KV } from 'nats';
import type { BusClient } from '../../shared/bus/bus-client.js';
import { ForeignKeyValueBucketError, KeyValueBucketMissingError } from '../../shared/bus/jetstream-errors.js';
import { NatsTransport } from '../../shared/bus/nats-transport.js';
import { createRateLimitBucket } from '../../shared/contracts/rate-limits.js';
import { newId } from '../../shared/ids.js';
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

/**
 * The limits from configuration, all counted in one store: over NATS, a JetStream
 * bucket that every gateway shares; in the embedded default (one process), memory.
 */
export function gatewayRateLimits(bus: BusClient, config: Config, log: Logger, metrics: Registry): GatewayRateLimits {
  let store: RateLimitStore = new MemoryRateLimitStore();
  const transport = bus.transport;
  if (transport instanceof NatsTransport) {
    const bucket = rateLimitBucketOf(config.busNamespace);
    // A gateway may not create streams (shared/bus/nats-permissions.ts): a missing bucket is made by a webhooks worker.
    const open = async (): Promise<KV> => {
      try {
        return await transport.openKeyValue(bucket);
      } catch (error) {
        if (!(error instanceof KeyValueBucketMissingError)) throw error;
        await bus.call(createRateLimitBucket, {}, { context: null, requestId: newId('request') });
        return transport.openKeyValue(bucket);
      }
    };
    const shared = new NatsKvRateLimitStore(open);
    // A foreign bucket is an attack to act on; no webhooks worker yet is how a deployment starts.
    shared.openNow((error) => log[error instanceof ForeignKeyValueBucketError ? 'error' : 'warn']({ err: error }, 'rate-limit bucket not opened; trying again'));
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
