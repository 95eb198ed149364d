import type { getWebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toWebhookEndpointResource } from './endpoint-resource.js';
import { findEndpoint } from './find-endpoint.js';

export const getEndpointHandler: OperationHandler<typeof getWebhookEndpoint> = async ({ input, db }) =>
  toWebhookEndpointResource(await findEndpoint(db, input.id));
