import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import type { WebhookDeliveryAttemptRow } from './delivery-resource.js';

/** The attempts of some deliveries, by delivery, each list oldest first: one query for a page. */
export async function attemptsOf(db: WorkspaceSql, deliveryIds: readonly string[]): Promise<Map<string, WebhookDeliveryAttemptRow[]>> {
  const byDelivery = new Map<string, WebhookDeliveryAttemptRow[]>(deliveryIds.map((id) => [id, []]));
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
  for (const row of rows) byDelivery.get(row.delivery_id)?.push(row);
  return byDelivery;
}
