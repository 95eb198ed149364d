import { workspaceEm, type Orm } from '../../../shared/db/orm.js';
import { pgTimestamp } from '../../../shared/db/sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import { DELIVERY_ENDPOINT_COLUMNS, type DeliveryEndpoint } from './attempt-delivery.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';
import type { StreamEvent } from './event-consumer.js';
import { endpointWants } from '../endpoints/endpoint-wants.js';
import { queueDeliveries, type QueuedMessage } from './queue-delivery.js';

/** A delivery just queued, with what sending it needs of its endpoint. */
export interface QueuedDelivery {
  row: WebhookDeliveryRow;
  endpoint: DeliveryEndpoint;
  /** When the endpoint was read (Date.now()): the loop reads it again if it waited too long since. */
  readAt: number;
}

/**
 * One delivery for each enabled endpoint of an event's workspace that wants its type and
 * existed when it happened (an endpoint does not receive the past). Idempotent: the same
 * event again adds nothing. One query for the endpoints and one insert per workspace of
 * the batch. Returns the deliveries added; with `leaseMs` they are leased to the caller,
 * which sends them at once (another copy takes them only if the lease runs out).
 */
export async function fanOutEvents(orm: Orm, events: readonly StreamEvent[], leaseMs = 0): Promise<QueuedDelivery[]> {
  const byWorkspace = new Map<string, StreamEvent[]>();
  for (const event of events) {
    const ofWorkspace = byWorkspace.get(event.workspaceId);
    if (ofWorkspace) ofWorkspace.push(event);
    else byWorkspace.set(event.workspaceId, [event]);
  }
  const added: QueuedDelivery[] = [];
  for (const [workspaceId, ofWorkspace] of byWorkspace) {
    const db = workspaceSql(workspaceEm(orm, workspaceId), workspaceId);
    const endpoints = await db
      .selectFrom('webhook_endpoints')
      .select([...DELIVERY_ENDPOINT_COLUMNS, 'created_at'])
      .where('status', '=', 'enabled')
      .execute();
    const readAt = Date.now();
    if (endpoints.length === 0) continue;
    const messages: QueuedMessage[] = [];
    for (const streamEvent of ofWorkspace) {
      const wanting = endpoints.filter((endpoint) => endpointWants(endpoint.enabled_events, streamEvent.type));
      // Read only the events some endpoint wants.
      const event = wanting.length > 0 ? streamEvent.event() : null;
      if (!event) continue;
      const at = Date.parse(event.created_at);
      const payload = JSON.stringify(event);
      for (const endpoint of wanting) {
        if (pgTimestamp(endpoint.created_at).getTime() <= at) messages.push({ endpointId: endpoint.id, eventId: event.id, eventType: event.type, payload });
      }
    }
    const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    for (const row of await queueDeliveries(db, messages, leaseMs)) added.push({ row, endpoint: byId.get(row.endpoint_id) as DeliveryEndpoint, readAt });
  }
  return added;
}
