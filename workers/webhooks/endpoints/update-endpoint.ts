import { webhookUrlAsStored, type EnabledEvent, type updateWebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toWebhookEndpointResource } from './endpoint-resource.js';
import { endpointUnchanged } from './endpoint-unchanged.js';
import { findEndpoint } from './find-endpoint.js';
import { requireDeliverableUrl } from './require-deliverable-url.js';
import { requireReadableEvents } from './require-readable-events.js';

/** Changes the fields given (the same values again change nothing); enabling an endpoint again, or pointing it at another URL, forgets its failures. */
export const updateEndpointHandler: OperationHandler<typeof updateWebhookEndpoint> = async ({ input, context, db, events, services }) => {
  const { id, ...fields } = input;
  if (fields.url !== undefined) {
    // An endpoint that is not there is a 404 whatever the url; the url (its DNS) is checked before the row is locked.
    await findEndpoint(db, id);
    await requireDeliverableUrl(fields.url, services);
  }
  const before = await findEndpoint(db, id, { forUpdate: true });
  // Where an endpoint's events go, and which: only a caller who may read them all changes that.
  if (fields.url !== undefined || fields.enabled_events !== undefined) requireReadableEvents(context, fields.enabled_events ?? (before.enabled_events as EnabledEvent[]));
  if (endpointUnchanged(before, fields)) return toWebhookEndpointResource(before);
  const enabledAgain = fields.status === 'enabled' && before.status !== 'enabled';
  // The old address's failures say nothing of the new one: counted on, they would disable the
  // endpoint at the new address's first failure.
  const moved = fields.url !== undefined && fields.url !== webhookUrlAsStored(before.url);
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      url: fields.url,
      description: fields.description,
      enabled_events: fields.enabled_events,
      status: fields.status,
      ...(enabledAgain || moved ? { failing_since: null } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const endpoint = toWebhookEndpointResource(row);
  await events.record({ type: 'webhook_endpoint.updated', object: endpoint, previous: toWebhookEndpointResource(before) });
  return endpoint;
};
