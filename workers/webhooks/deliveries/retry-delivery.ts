import { sql } from 'kysely';
import type { retryWebhookDelivery } from '../../../shared/contracts/webhooks.js';
import { pgTimestamp } from '../../../shared/db/sql.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { ConflictError, NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { endpointWants, typesWanted } from '../endpoints/endpoint-wants.js';
import { findEndpoint } from '../endpoints/find-endpoint.js';
import { attemptsOf } from './delivery-attempts.js';
import { DELIVERY_PARAM, ENDPOINT_PARAM } from './delivery-params.js';
import { wakeDeliveryLoop } from './delivery-loop.js';
import { toWebhookDeliveryResource } from './delivery-resource.js';

/**
 * Sends a delivery again, now. A failed one gets one more attempt once its schedule was spent
 * (failing again leaves it failed), or the rest of its schedule when it failed unsent because
 * its endpoint was disabled; a pending one is sent now instead of at its scheduled time. One being sent
 * right now is refused rather than sent a second time beside it (its outcome would also
 * overwrite the retry), a succeeded one has nothing to retry, and one whose type the endpoint
 * no longer enables would only fail unsent again.
 */
export const retryDeliveryHandler: OperationHandler<typeof retryWebhookDelivery> = async ({ input, db, afterCommit }) => {
  // Locked, as by the attempts' storing (endpoint, then delivery): a deletion or a disabling under way is waited for.
  const endpoint = await findEndpoint(db, input.endpoint_id, { forUpdate: true });
  if (endpoint.status !== 'enabled') throw new ConflictError('The endpoint is disabled and receives nothing: enable it first.', ENDPOINT_PARAM);
  const now = new Date();
  const wanted = typesWanted(endpoint.enabled_events);
  const row = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, updated_at: now })
    .where('id', '=', input.id)
    .where('endpoint_id', '=', input.endpoint_id)
    .where('status', '<>', 'succeeded')
    // Sent only while the endpoint enables its type: else the attempt would fail unsent at once.
    .where((eb) => (wanted === 'all' ? eb.lit(true) : eb('event_type', 'in', [...wanted])))
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', sql<string>`now()`)]))
    .returningAll()
    .executeTakeFirst();
  if (!row) throw await whyNotRetried(db, input, endpoint.enabled_events);
  afterCommit(wakeDeliveryLoop);
  const attempts = await attemptsOf(db, [row.id]);
  return toWebhookDeliveryResource(row, attempts.get(row.id) ?? []);
};

async function whyNotRetried(db: WorkspaceSql, input: { endpoint_id: string; id: string }, enabledEvents: readonly string[]): Promise<Error> {
  const current = await db
    .selectFrom('webhook_deliveries')
    .select(['status', 'leased_until', 'event_type'])
    .where('id', '=', input.id)
    .where('endpoint_id', '=', input.endpoint_id)
    .executeTakeFirst();
  if (!current) return new NotFoundError('delivery', input.id, DELIVERY_PARAM);
  if (current.status === 'succeeded') return new ConflictError('The delivery succeeded: there is nothing to retry. To check the endpoint, send a test event.', DELIVERY_PARAM);
  if (!endpointWants(enabledEvents, current.event_type)) {
    return new ConflictError(`The endpoint no longer enables ${current.event_type}: add it to enabled_events first.`, DELIVERY_PARAM);
  }
  const seconds = current.leased_until ? Math.max(1, Math.ceil((pgTimestamp(current.leased_until).getTime() - Date.now()) / 1000)) : 1;
  return new ConflictError(`An attempt of this delivery is under way; retry once it has ended (within ${seconds} s).`, DELIVERY_PARAM);
}
