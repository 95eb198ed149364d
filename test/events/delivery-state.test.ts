import t from 'tap';
import pg from 'pg';
import { openDatabase, workspaceEm } from '../../shared/db/orm.js';
import { workspaceSql } from '../../shared/db/workspace-sql.js';
import { AttemptBatch } from '../../workers/webhooks/deliveries/attempt-batch.js';
import { queueDeliveries } from '../../workers/webhooks/deliveries/queue-delivery.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * A delivery sent by two copies at once (a lease that ran out while one copy still held
 * it, or a retry by hand during an attempt): both attempts are kept, and the delivery's
 * state is the one the first to store it wrote, never an older one written over a newer.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap();
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['webhooks:write', 'events:read']));
// Disabled: the stack's own webhooks worker leaves its deliveries alone.
const endpoint = (await api.post<{ id: string }>('/v1/webhook-endpoints', { url: 'https://hooks.unresolvable.invalid/state', enabled_events: ['webhook_endpoint.updated'], status: 'disabled' })).body;
const orm = await openDatabase({ url: stack.db.url, poolMax: 2, applicationName: 'delivery state test' });
t.teardown(() => orm.close());

t.test('the second copy to store an attempt keeps its attempt, not its state', async (t) => {
  const db = workspaceSql(workspaceEm(orm, ws.workspace.id), ws.workspace.id);
  const [row] = await queueDeliveries(db, [{ endpointId: endpoint.id, eventId: 'evt_STATEGUARD1', eventType: 'webhook_endpoint.updated', payload: '{}' }], 60_000);
  if (!row) throw new Error('no delivery queued');
  const attempts = new AttemptBatch(orm);
  // Both copies took the delivery at attempt_count 0, so both store attempt 1.
  const first = { workspaceId: ws.workspace.id, deliveryId: row.id, attemptCount: 1, latencyMs: 5 };
  await attempts.store({ ...first, attemptedAt: new Date(), statusCode: 200, succeeded: true, error: null, status: 'succeeded', nextAttemptAt: null });
  await attempts.store({ ...first, attemptedAt: new Date(), statusCode: 500, succeeded: false, error: 'HTTP 500', status: 'pending', nextAttemptAt: new Date(Date.now() + 60_000) });

  const [state] = await stack.db.query<{ status: string; attempt_count: number; next_attempt_at: Date | null }>('select status, attempt_count, next_attempt_at from webhook_deliveries where id = $1', [row.id]);
  t.match(state, { status: 'succeeded', attempt_count: 1, next_attempt_at: null }, 'the success stands: no retry scheduled over it');
  const kept = await stack.db.query<{ succeeded: boolean }>('select succeeded from webhook_delivery_attempts where delivery_id = $1 order by id', [row.id]);
  t.same(kept.map((a) => a.succeeded).sort(), [false, true], 'both attempts are kept');
});

t.test('a success stored while its failing endpoint is being deleted: neither side fails on a deadlock', async (t) => {
  // Before, the batch locked the delivery and then waited for the endpoint (to end its failing
  // spell) while the deletion held the endpoint and waited for the delivery: Postgres broke the
  // deadlock by failing one of them, the deletion (a 500) or the whole batch (every workspace's
  // attempts lost, their deliveries sent again).
  const db = workspaceSql(workspaceEm(orm, ws.workspace.id), ws.workspace.id);
  const doomed = (await api.post<{ id: string }>('/v1/webhook-endpoints', { url: 'https://hooks.unresolvable.invalid/doomed', enabled_events: ['webhook_endpoint.updated'], status: 'disabled' })).body;
  await stack.db.query("update webhook_endpoints set failing_since = now() - interval '1 hour' where id = $1", [doomed.id]);
  const [row] = await queueDeliveries(db, [{ endpointId: doomed.id, eventId: 'evt_DEADLOCK1', eventType: 'webhook_endpoint.updated', payload: '{}' }], 60_000);
  if (!row) throw new Error('no delivery queued');

  // The deletion as deleteEndpointHandler runs it: the endpoint locked, then deleted (its deliveries with it).
  const deletion = new pg.Client({ connectionString: stack.db.url });
  await deletion.connect();
  t.teardown(() => deletion.end());
  await deletion.query('begin');
  await deletion.query('select id from webhook_endpoints where id = $1 for update', [doomed.id]);
  const pid = (await deletion.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
  const stored = new AttemptBatch(orm)
    .store({ workspaceId: ws.workspace.id, deliveryId: row.id, attemptedAt: new Date(), statusCode: 200, latencyMs: 5, succeeded: true, error: null, status: 'succeeded', attemptCount: 1, nextAttemptAt: null })
    .then(
      () => null,
      (error: unknown) => error,
    );
  // Until the batch waits for the deletion's lock (or has finished without waiting).
  let settled = false;
  void stored.then(() => (settled = true));
  for (let i = 0; i < 100 && !settled; i++) {
    const waiting = await stack.db.query('select 1 from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [pid]);
    if (waiting.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const deleted = await deletion.query('delete from webhook_endpoints where id = $1', [doomed.id]).then(
    () => null,
    (error: unknown) => error,
  );
  await deletion.query(deleted === null ? 'commit' : 'rollback');
  t.equal(deleted, null, 'the deletion went through');
  t.equal(await stored, null, 'and so did the batch');
  t.same(await stack.db.query('select id from webhook_deliveries where id = $1', [row.id]), [], 'the delivery went with its endpoint');
});
