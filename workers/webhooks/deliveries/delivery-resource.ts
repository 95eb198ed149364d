import type { Selectable } from 'kysely';
import type { WebhookDelivery } from '../../../shared/contracts/webhooks.js';
import { isoTimestamp, isoTimestampOrNull, type CrmDatabase } from '../../../shared/db/sql.js';

export type WebhookDeliveryRow = Selectable<CrmDatabase['webhook_deliveries']>;
export type WebhookDeliveryAttemptRow = Selectable<CrmDatabase['webhook_delivery_attempts']>;

/** The API shape of a delivery with its attempts, oldest first. */
export function toWebhookDeliveryResource(row: WebhookDeliveryRow, attempts: readonly WebhookDeliveryAttemptRow[]): WebhookDelivery {
  return {
    object: 'webhook_delivery',
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status as WebhookDelivery['status'],
    attempt_count: row.attempt_count,
    next_attempt_at: row.status === 'pending' ? isoTimestampOrNull(row.next_attempt_at) : null,
    created_at: isoTimestamp(row.created_at),
    attempts: attempts.map((a) => ({
      attempted_at: isoTimestamp(a.attempted_at),
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      succeeded: a.succeeded,
      error: a.error,
    })),
  };
}
