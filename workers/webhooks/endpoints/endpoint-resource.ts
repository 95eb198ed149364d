import type { Selectable } from 'kysely';
import type { WebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import { isoTimestamp, isoTimestampOrNull, type CrmDatabase } from '../../../shared/db/sql.js';

export type WebhookEndpointRow = Selectable<CrmDatabase['webhook_endpoints']>;

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
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}
