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
  if (!jetStream) throw new Error('this worker has no JetStream to hold the rate-limit bucket');
  if (natsKvReplicas === undefined) throw new Error('this worker was started without NATS_KV_REPLICAS for the rate-limit bucket');
  const bucket = rateLimitBucketOf(services.busNamespace);
  try {
    await jetStream.createKeyValue(bucket, { ttlMs: RATE_LIMIT_KEY_TTL_MS, replicas: natsKvReplicas });
  } catch (error) {
    // NATS answers a request its permissions drop with nothing: the deployment's authorization predates this right.
    if (error instanceof Error && /timeout|permission/i.test(error.message)) {
      throw new Error(`the rate-limit bucket could not be created (${error.message}): NATS may not let the webhooks worker create KV_${bucket}; print the users again with "crm nats config" and reload NATS`, { cause: error });
    }
    throw error;
  }
  return { bucket };
};
