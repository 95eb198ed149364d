import { WEBHOOK_TEST_EVENT_TYPE, type WebhookEvent } from '../../../shared/contracts/webhook-payload.js';
import type { sendTestWebhook } from '../../../shared/contracts/webhooks.js';
import { ConflictError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import { actorOf } from '../../runtime/events/event-actor.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { wakeDeliveryLoop } from '../deliveries/delivery-loop.js';
import { toWebhookDeliveryResource } from '../deliveries/delivery-resource.js';
import { queueDeliveries } from '../deliveries/queue-delivery.js';
import { toWebhookEndpointResource } from './endpoint-resource.js';
import { findEndpoint } from './find-endpoint.js';

/**
 * Queues a signed test event for the endpoint, sent at once by the delivery loop: the reply
 * is the pending delivery, whose attempt the delivery log shows a moment later.
 */
export const sendTestEventHandler: OperationHandler<typeof sendTestWebhook> = async ({ input, context, db, requestId, afterCommit }) => {
  // Locked: a deletion or a disabling under way is waited for (a 404, a 409), not queued behind.
  const endpoint = await findEndpoint(db, input.id, { forUpdate: true });
  if (endpoint.status !== 'enabled') throw new ConflictError('The endpoint is disabled and receives nothing: enable it first.', 'id');
  const now = new Date();
  const event: WebhookEvent = {
    object: 'event',
    id: newId('event', now.getTime()),
    type: WEBHOOK_TEST_EVENT_TYPE,
    workspace_id: db.workspaceId,
    created_at: now.toISOString(),
    request_id: requestId === 'unknown' ? null : requestId,
    actor: await actorOf(db, context),
    data: { object: { ...toWebhookEndpointResource(endpoint) }, previous_attributes: null },
  };
  const [row] = await queueDeliveries(db, [{ endpointId: endpoint.id, eventId: event.id, eventType: WEBHOOK_TEST_EVENT_TYPE, payload: JSON.stringify(event) }]);
  if (!row) throw new Error('the test delivery was not stored');
  afterCommit(wakeDeliveryLoop);
  return toWebhookDeliveryResource(row, []);
};
