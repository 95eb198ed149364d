import type { Selectable } from 'kysely';
import type { WebhookDelivery } from '../../../shared/contracts/webhooks.js';
import { isoTimestamp, isoTimestampOrNull, pgTimestamp, type CrmDatabase } from '../../../shared/db/sql.js';

export type WebhookDeliveryRow = Selectable<CrmDatabase['webhook_deliveries']>;
export type WebhookDeliveryAttemptRow = Selectable<CrmDatabase['webhook_delivery_attempts']>;

/**
 * While a copy holds the delivery (an attempt under way, or about to be), next_attempt_at is
 * only that lease's end, WEBHOOK_TIMEOUT plus 30 s ahead: shown, it read as a next attempt
 * scheduled then, when the attempt is being sent now. A lease that ran out (its copy died)
 * is not held: the delivery is due again.
 */
function attemptUnderWay(row: WebhookDeliveryRow): boolean {
  return row.leased_until !== null && pgTimestamp(row.leased_until).getTime() > Date.now();
}

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
    next_attempt_at: row.status === 'pending' && !attemptUnderWay(row) ? isoTimestampOrNull(row.next_attempt_at) : null,
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
