import type { Selectable } from 'kysely';
import type { WebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import { isoTimestamp, isoTimestampOrNull, type CrmDatabase } from '../../../shared/db/sql.js';

export type WebhookEndpointRow = Selectable<CrmDatabase['webhook_endpoints']>;

/** Until when the previous secret still signs; null once that time has passed (or none was kept). */
export function previousSecretExpiry(row: Pick<WebhookEndpointRow, 'previous_secret_encrypted' | 'previous_secret_expires_at'>, now = Date.now()): string | null {
  const expiry = isoTimestampOrNull(row.previous_secret_expires_at);
  return row.previous_secret_encrypted !== null && expiry !== null && Date.parse(expiry) > now ? expiry : null;
}

/** The API shape of an endpoint: never its secret. */
export function toWebhookEndpointResource(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    workspace_id: row.workspace_id,
    url: row.url,
    description: row.description,
    enabled_events: row.enabled_events as WebhookEndpoint['enabled_events'],
    status: row.status as WebhookEndpoint['status'],
    failing_since: isoTimestampOrNull(row.failing_since),
    secret_rotated_at: isoTimestampOrNull(row.secret_rotated_at),
    previous_secret_expires_at: previousSecretExpiry(row),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}
