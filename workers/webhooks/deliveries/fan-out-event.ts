import { sql } from 'kysely';
import type { Event } from '../../../shared/contracts/events.js';
import { workspaceEm, type Orm } from '../../../shared/db/orm.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';
import { queueDeliveries } from './queue-delivery.js';

/**
 * One delivery for each enabled endpoint of the event's workspace that wants its type
 * and existed when it happened (an endpoint does not receive the past). Idempotent: the
 * same event again adds nothing. Returns the deliveries added.
 */
export async function fanOutEvent(orm: Orm, event: Event): Promise<WebhookDeliveryRow[]> {
  const db = workspaceSql(workspaceEm(orm, event.workspace_id), event.workspace_id);
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('status', '=', 'enabled')
    .where('created_at', '<=', event.created_at)
    .where(sql<boolean>`enabled_events && ${sql.val(['*', event.type])}::text[]`)
    .execute();
  const payload = JSON.stringify(event);
  return queueDeliveries(
    db,
    endpoints.map((e) => ({ endpointId: e.id, eventId: event.id, eventType: event.type, payload })),
  );
}
