import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';

/**
 * Creates the rate-limit bucket when it is missing. Gateways may not create JetStream
 * streams (NATS cannot limit what a create request configures, and a gateway's key could
 * make the bucket capture the tokens worker's requests), so a gateway that finds no bucket
 * asks a webhooks worker, which makes it as the service configures it and nothing else. The
 * webhooks worker already creates the event stream: no role gains a right it did not have.
 */
export const createRateLimitBucket = defineOperation({
  worker: 'webhooks',
  resource: 'rate-limits',
  verb: 'create-bucket',
  scoped: false,
  input: z.object({}),
  output: z.object({ bucket: z.string() }),
});
