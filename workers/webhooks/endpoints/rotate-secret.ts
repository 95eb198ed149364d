import type { rotateWebhookSecret } from '../../../shared/contracts/webhooks.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toWebhookEndpointResource } from './endpoint-resource.js';
import { newWebhookSecret, sealWebhookSecret } from './endpoint-secret.js';
import { findEndpoint } from './find-endpoint.js';

/**
 * A new secret, in this reply only; the old one stops at once (deliveries sent from now
 * on, retries included, are signed with the new one).
 */
export const rotateSecretHandler: OperationHandler<typeof rotateWebhookSecret> = async ({ input, db, events, services }) => {
  const before = await findEndpoint(db, input.id, { forUpdate: true });
  const now = new Date();
  const secret = newWebhookSecret();
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ secret_encrypted: sealWebhookSecret(services.secrets, secret), secret_rotated_at: now, updated_at: now })
    .where('id', '=', input.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const endpoint = toWebhookEndpointResource(row);
  // The event says when, never the secret.
  await events.record({ type: 'webhook_endpoint.updated', object: endpoint, previous: toWebhookEndpointResource(before) });
  return { ...endpoint, secret };
};
