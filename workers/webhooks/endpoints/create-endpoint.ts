import type { createWebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import { newId } from '../../../shared/ids.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toWebhookEndpointResource } from './endpoint-resource.js';
import { newWebhookSecret, sealWebhookSecret } from './endpoint-secret.js';
import { requireDeliverableUrl } from './require-deliverable-url.js';
import { requireEndpointRoom } from './require-endpoint-room.js';
import { requireReadableEvents } from './require-readable-events.js';

/** The secret is in this reply only; the database holds it encrypted. */
export const createEndpointHandler: OperationHandler<typeof createWebhookEndpoint> = async ({ input, context, db, events, services }) => {
  requireReadableEvents(context, input.enabled_events);
  await requireDeliverableUrl(input.url, services);
  await requireEndpointRoom(db);
  const secret = newWebhookSecret();
  const now = new Date();
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      id: newId('webhookEndpoint', now.getTime()),
      workspace_id: db.workspaceId,
      url: input.url,
      description: input.description ?? null,
      enabled_events: input.enabled_events,
      status: input.status ?? 'enabled',
      secret_encrypted: sealWebhookSecret(services.secrets, secret),
      created_at: now,
      updated_at: now,
      failing_since: null,
      secret_rotated_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const endpoint = toWebhookEndpointResource(row);
  await events.record({ type: 'webhook_endpoint.created', object: endpoint });
  return { ...endpoint, secret };
};
