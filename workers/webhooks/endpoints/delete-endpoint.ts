import type { deleteWebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toWebhookEndpointResource } from './endpoint-resource.js';
import { findEndpoint } from './find-endpoint.js';

/** Gone with its deliveries and their attempts; the event keeps what it was. */
export const deleteEndpointHandler: OperationHandler<typeof deleteWebhookEndpoint> = async ({ input, db, events }) => {
  const before = await findEndpoint(db, input.id, { forUpdate: true });
  await db.deleteFrom('webhook_endpoints').where('id', '=', input.id).execute();
  await events.record({ type: 'webhook_endpoint.deleted', object: toWebhookEndpointResource(before) });
  return { object: 'webhook_endpoint' as const, id: input.id, deleted: true as const };
};
