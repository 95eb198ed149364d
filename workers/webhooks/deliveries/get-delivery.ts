import type { getWebhookDelivery } from '../../../shared/contracts/webhooks.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { findEndpoint } from '../endpoints/find-endpoint.js';
import { attemptsOf } from './delivery-attempts.js';
import { DELIVERY_PARAM } from './delivery-params.js';
import { toWebhookDeliveryResource } from './delivery-resource.js';

/** One delivery of one endpoint of the workspace, as the list shows it; a 404 for any other. */
export const getDeliveryHandler: OperationHandler<typeof getWebhookDelivery> = async ({ input, db }) => {
  await findEndpoint(db, input.endpoint_id);
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', input.id).where('endpoint_id', '=', input.endpoint_id).executeTakeFirst();
  if (!row) throw new NotFoundError('delivery', input.id, DELIVERY_PARAM);
  const attempts = await attemptsOf(db, [row.id]);
  return toWebhookDeliveryResource(row, attempts.get(row.id) ?? []);
};
