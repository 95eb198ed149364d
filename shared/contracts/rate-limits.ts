import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';

/**
 * Creates the rate-limit bucket when it is missing. Gateways may not create JetStream
 * streams (NATS cannot limit what a create request configures, and a gateway's key could
 * make the bucket capture the tokens worker's requests), so a gateway that finds no bucket
 * asks a tokens worker, which makes it as the service configures it and nothing else.
 */
export const createRateLimitBucket = defineOperation({
  worker: 'tokens',
  resource: 'rate-limits',
  verb: 'create-bucket',
  scoped: false,
  input: z.object({}),
  output: z.object({ bucket: z.string() }),
});
