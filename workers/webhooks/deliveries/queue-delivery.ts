import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { newId } from '../../../shared/ids.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';

export interface QueuedMessage {
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
}

/**
 * Delivery rows, one per endpoint and event: an event that arrives again (the stream
 * redelivers at least once) adds nothing. Due now, or after `leaseMs` when the caller
 * sends them itself (leased to it, as a claim would). Returns the rows actually added.
 */
export async function queueDeliveries(db: WorkspaceSql, messages: readonly QueuedMessage[], leaseMs = 0): Promise<WebhookDeliveryRow[]> {
  if (messages.length === 0) return [];
  const now = new Date();
  const due = new Date(now.getTime() + leaseMs);
  return db
    .insertInto('webhook_deliveries')
    .values(
      messages.map((m) => ({
        id: newId('webhookMessage', now.getTime()),
        workspace_id: db.workspaceId,
        endpoint_id: m.endpointId,
        event_id: m.eventId,
        event_type: m.eventType,
        payload: m.payload,
        status: 'pending',
        attempt_count: 0,
        next_attempt_at: due,
        last_attempt_at: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
    .returningAll()
    .execute();
}
