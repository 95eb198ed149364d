import type { rotateWebhookSecret } from '../../../shared/contracts/webhooks.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toWebhookEndpointResource } from './endpoint-resource.js';
import { newWebhookSecret, sealWebhookSecret } from './endpoint-secret.js';
import { findEndpoint } from './find-endpoint.js';

/**
 * A new secret, in this reply only. The current one stops at once, or with
 * `expire_previous_in` keeps signing beside it for that long (every delivery sent meanwhile,
 * retries included, carries both signatures), so a receiver can switch without a gap. A
 * secret kept from an earlier rotation is dropped: at most two ever sign.
 */
export const rotateSecretHandler: OperationHandler<typeof rotateWebhookSecret> = async ({ input, db, events, services }) => {
  const before = await findEndpoint(db, input.id, { forUpdate: true });
  const now = new Date();
  const keepFor = input.expire_previous_in ?? 0;
  const secret = newWebhookSecret();
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      secret_encrypted: sealWebhookSecret(services.secrets, secret),
      secret_rotated_at: now,
      previous_secret_encrypted: keepFor > 0 ? before.secret_encrypted : null,
      previous_secret_expires_at: keepFor > 0 ? new Date(now.getTime() + keepFor * 1000) : null,
      updated_at: now,
    })
    .where('id', '=', input.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const endpoint = toWebhookEndpointResource(row);
  // The event says when, never the secret.
  await events.record({ type: 'webhook_endpoint.updated', object: endpoint, previous: toWebhookEndpointResource(before) });
  return { ...endpoint, secret };
};
