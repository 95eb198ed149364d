import type { Event } from '../../../shared/contracts/events.js';
import { workspaceEm, type Orm } from '../../../shared/db/orm.js';
import { pgTimestamp } from '../../../shared/db/sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import { DELIVERY_ENDPOINT_COLUMNS, type DeliveryEndpoint } from './attempt-delivery.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';
import { queueDeliveries, type QueuedMessage } from './queue-delivery.js';

/** A delivery just queued, with what sending it needs of its endpoint. */
export interface QueuedDelivery {
  row: WebhookDeliveryRow;
  endpoint: DeliveryEndpoint;
}

/**
 * One delivery for each enabled endpoint of an event's workspace that wants its type and
 * existed when it happened (an endpoint does not receive the past). Idempotent: the same
 * event again adds nothing. One query for the endpoints and one insert per workspace of
 * the batch. Returns the deliveries added; with `leaseMs` they are leased to the caller,
 * which sends them at once (another copy takes them only if the lease runs out).
 */
export async function fanOutEvents(orm: Orm, events: readonly Event[], leaseMs = 0): Promise<QueuedDelivery[]> {
  const byWorkspace = new Map<string, Event[]>();
  for (const event of events) {
    const ofWorkspace = byWorkspace.get(event.workspace_id);
    if (ofWorkspace) ofWorkspace.push(event);
    else byWorkspace.set(event.workspace_id, [event]);
  }
  const added: QueuedDelivery[] = [];
  for (const [workspaceId, ofWorkspace] of byWorkspace) {
    const db = workspaceSql(workspaceEm(orm, workspaceId), workspaceId);
    const endpoints = await db
      .selectFrom('webhook_endpoints')
      .select([...DELIVERY_ENDPOINT_COLUMNS, 'created_at', 'enabled_events'])
      .where('status', '=', 'enabled')
      .execute();
    if (endpoints.length === 0) continue;
    const messages: QueuedMessage[] = [];
    for (const event of ofWorkspace) {
      const at = Date.parse(event.created_at);
      const payload = JSON.stringify(event);
      for (const endpoint of endpoints) {
        const wants = endpoint.enabled_events.includes('*') || endpoint.enabled_events.includes(event.type);
        if (wants && pgTimestamp(endpoint.created_at).getTime() <= at) messages.push({ endpointId: endpoint.id, eventId: event.id, eventType: event.type, payload });
      }
    }
    const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    for (const row of await queueDeliveries(db, messages, leaseMs)) added.push({ row, endpoint: byId.get(row.endpoint_id) as DeliveryEndpoint });
  }
  return added;
}
