import type { retryWebhookDelivery } from '../../../shared/contracts/webhooks.js';
import { ConflictError, NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { findEndpoint } from '../endpoints/find-endpoint.js';
import { attemptsOf } from './delivery-attempts.js';
import { wakeDeliveryLoop } from './delivery-loop.js';
import { toWebhookDeliveryResource } from './delivery-resource.js';

/**
 * Sends a delivery again, now. A failed one gets one more attempt (failing again leaves it
 * failed); a pending one is sent now instead of at its scheduled time.
 */
export const retryDeliveryHandler: OperationHandler<typeof retryWebhookDelivery> = async ({ input, db, afterCommit }) => {
  const endpoint = await findEndpoint(db, input.endpoint_id);
  if (endpoint.status !== 'enabled') throw new ConflictError('The endpoint is disabled and receives nothing: enable it first.', 'endpoint_id');
  const row = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: new Date(), updated_at: new Date() })
    .where('id', '=', input.id)
    .where('endpoint_id', '=', input.endpoint_id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new NotFoundError('delivery', input.id, 'id');
  afterCommit(wakeDeliveryLoop);
  const attempts = await attemptsOf(db, [row.id]);
  return toWebhookDeliveryResource(row, attempts.get(row.id) ?? []);
};
