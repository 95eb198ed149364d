import type { createRateLimitBucket } from '../../../shared/contracts/rate-limits.js';
import { RATE_LIMIT_KEY_TTL_MS, rateLimitBucketOf } from '../../../shared/rate-limit/rate-limit-bucket.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';

/**
 * Makes the gateways' rate-limit bucket, with this service's settings and nothing else, when
 * a gateway finds none (gateways may not create streams); opening one that exists changes
 * nothing, and one made otherwise (capturing other subjects, copying a stream) is refused.
 */
export const createRateLimitBucketHandler: UnscopedHandler<typeof createRateLimitBucket> = async ({ services }) => {
  const { jetStream, natsKvReplicas } = services;
  // Gateways only ask over NATS: the in-process bus counts in the gateway's memory.
  if (!jetStream || natsKvReplicas === undefined) throw new Error('this worker has no JetStream to hold the rate-limit bucket');
  const bucket = rateLimitBucketOf(services.busNamespace);
  await jetStream.createKeyValue(bucket, { ttlMs: RATE_LIMIT_KEY_TTL_MS, replicas: natsKvReplicas });
  return { bucket };
};
