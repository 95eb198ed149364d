import { sql } from 'kysely';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { newId } from '../../../shared/ids.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';

export interface QueuedMessage {
  endpointId: string;
  eventId: string;
  eventType: string;
  payload: string;
}

/** The columns a queued delivery reads back: all but the payload, which the caller has. */
const RETURNED = sql.raw('id, workspace_id, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, leased_until, last_attempt_at, created_at, updated_at');

/**
 * Delivery rows, one per endpoint and event: an event that arrives again (the stream
 * redelivers at least once) adds nothing. Due now, or after `leaseMs` when the caller
 * sends them itself (leased to it, as a claim would). Returns the rows actually added.
 * One statement of fixed text for any number of rows (arrays through unnest), and the
 * payloads are not sent back.
 */
export async function queueDeliveries(db: WorkspaceSql, messages: readonly QueuedMessage[], leaseMs = 0): Promise<WebhookDeliveryRow[]> {
  if (messages.length === 0) return [];
  const now = new Date();
  const due = new Date(now.getTime() + leaseMs);
  const column = <T>(pick: (m: QueuedMessage) => T) => messages.map(pick);
  const added = await sql<Omit<WebhookDeliveryRow, 'payload'>>`
    insert into webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_type, payload, status, attempt_count, next_attempt_at, leased_until, last_attempt_at, created_at, updated_at)
    select m.id, ${db.workspaceId}, m.endpoint_id, m.event_id, m.event_type, m.payload, 'pending', 0, ${due}, ${leaseMs > 0 ? due : null}, null, ${now}, ${now}
    from unnest(
      ${column(() => newId('webhookMessage', now.getTime()))}::text[], ${column((m) => m.endpointId)}::text[], ${column((m) => m.eventId)}::text[],
      ${column((m) => m.eventType)}::text[], ${column((m) => m.payload)}::text[]
    ) as m (id, endpoint_id, event_id, event_type, payload)
    on conflict (endpoint_id, event_id) do nothing
    returning ${RETURNED}`.execute(db.global);
  const payloads = new Map(messages.map((m) => [`${m.endpointId} ${m.eventId}`, m.payload]));
  return added.rows.map((row) => {
    const payload = payloads.get(`${row.endpoint_id} ${row.event_id}`);
    // Never sign and send an empty body in place of the event.
    if (payload === undefined) throw new Error(`queued delivery ${row.id} has no payload`);
    return { ...row, payload };
  });
}
