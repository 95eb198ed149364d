import { pgTimestamp } from '../../../shared/db/sql.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { EventRecorder } from '../../runtime/events/event-recorder.js';
import { toWebhookEndpointResource, type WebhookEndpointRow } from '../endpoints/endpoint-resource.js';

/** Who disables an endpoint that keeps failing, as its event names it. */
const DISABLED_BY = 'webhook delivery';

/**
 * After a failed attempt: the endpoint has been failing since its first failure with no
 * success in between; past `disableAfterMs` it is disabled (it then receives nothing), and
 * a `webhook_endpoint.disabled` event, by the service itself, says so.
 */
export async function noteEndpointFailure(db: WorkspaceSql, endpoint: WebhookEndpointRow, now: Date, disableAfterMs: number): Promise<void> {
  const failingSince = endpoint.failing_since === null ? now : pgTimestamp(endpoint.failing_since);
  const disable = endpoint.status === 'enabled' && now.getTime() - failingSince.getTime() >= disableAfterMs;
  if (!disable) {
    if (endpoint.failing_since === null) {
      await db.updateTable('webhook_endpoints').set({ failing_since: now }).where('id', '=', endpoint.id).where('failing_since', 'is', null).execute();
    }
    return;
  }
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', failing_since: endpoint.failing_since ?? now, updated_at: now })
    .where('id', '=', endpoint.id)
    .where('status', '=', 'enabled')
    .returningAll()
    .executeTakeFirst();
  // Another copy disabled it first: one event is enough.
  if (!row) return;
  await EventRecorder.bySystem(db, DISABLED_BY).record({
    type: 'webhook_endpoint.disabled',
    object: toWebhookEndpointResource(row),
    previous: toWebhookEndpointResource(endpoint),
  });
}
