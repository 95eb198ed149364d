import t from 'tap';
import { client } from '../helpers/http.js';
import { startPrivateNats } from '../helpers/private-services.js';
import { CrmProcess } from '../helpers/process.js';
import { startStack, waitUntilReady } from '../helpers/stack.js';
import { deliveriesLeasedBehindHangingOnes, ONE_ENDPOINT_MAY_HOLD_EVERY_SLOT } from '../helpers/leased-deliveries.js';
import { receiversClosedWith } from '../helpers/webhook-receiver.js';
import { DELIVERIES_IN_FLIGHT } from '../../workers/webhooks/deliveries/deliveries-in-flight.js';

/**
 * SIGTERM while NATS is unreachable (a rolling update during a NATS outage or a network
 * split). A drain ends with NATS answering a PING; with NATS gone silent, nats.js waits for it
 * to come back. Before, a contacts worker, a webhooks worker and a gateway stopped this way
 * took 34 s, 54 s and 54 s (and would have waited longer for a longer outage), past a pod's
 * 30 s grace period. Now each waits for NATS at most BUS_TIMEOUT_MS (no requester waits
 * longer for a reply), then closes, exits 0 and says once what it dropped; what it held (the
 * deliveries leased to the webhooks worker, the outbox) goes out from the next copy once NATS
 * is back. The NATS server is the test's own: freezing it disturbs no other test.
 */
const BUS_TIMEOUT_MS = 3_000;
/**
 * Long enough that the first hanging attempt, started with the first contact, is still hanging
 * when NATS freezes (35 writes and the checks later, on a loaded machine): one that timed out
 * would free a slot and a waiting delivery would be sent early.
 */
const WEBHOOK_TIMEOUT_S = 10;
/** A stop may wait for webhook attempts in flight (WEBHOOK_TIMEOUT), then for NATS (BUS_TIMEOUT_MS); plus a loaded machine's margin. */
const EXIT_WITHIN_MS = WEBHOOK_TIMEOUT_S * 1000 + BUS_TIMEOUT_MS + 4_000;
const WAITING = 4;

const nats = await startPrivateNats();
const stack = await startStack({
  workers: { contacts: 2 },
  services: { nats },
  env: { BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT: `${WEBHOOK_TIMEOUT_S}s`, ...ONE_ENDPOINT_MAY_HOLD_EVERY_SLOT },
});
const extra: CrmProcess[] = [];
t.teardown(async () => {
  nats.thaw();
  await Promise.all(extra.map((p) => p.stop('SIGKILL')));
  await stack.stop();
  await nats.stop();
});
const receiver = receiversClosedWith(t);
const ws = await stack.bootstrap({ org: 'Outage Stop Org', email: 'outage-stop-admin@example.test' });
const token = await stack.token(ws.workspace.id, ['contacts:read', 'contacts:write', 'events:read', 'webhooks:write']);
const api = client(stack.baseUrl, token);

t.test('workers and the gateway stopped while NATS is down exit in bounded time; what they held is picked up once it is back', async (t) => {
  // Deliveries leased to the webhooks worker: the first hang (holding every attempt slot), the rest wait for a slot.
  const { hook, hanging } = await deliveriesLeasedBehindHangingOnes(t, api, stack.db, receiver, { waiting: WAITING, namePrefix: 'Outage', phoneBase: 5563000 });

  const contacts = stack.workers.find((w) => w.label === 'worker contacts');
  const webhooks = stack.workers.find((w) => w.label === 'worker webhooks');
  if (!contacts || !webhooks) throw new Error('a worker is missing');
  // Stopped at once: the processes do not know yet that NATS is gone (their pings say so seconds later).
  nats.freeze();
  const stopping = Date.now();
  const stops = await Promise.all(
    [contacts, webhooks, stack.gateway].map(async (p) => ({ label: p.label, code: await p.stop('SIGTERM', 60_000), ms: Date.now() - stopping })),
  );
  for (const stop of stops) {
    t.equal(stop.code, 0, `${stop.label} exits 0`);
    t.ok(stop.ms < EXIT_WITHIN_MS, `${stop.label} exits within ${EXIT_WITHIN_MS} ms (${stop.ms} ms)`);
  }
  for (const p of [contacts, webhooks, stack.gateway]) {
    const lines = (await p.settledText()).split('\n').filter((line) => line.includes('NATS unreachable at shutdown'));
    t.equal(lines.length, 1, `${p.label} says once that it closed without NATS`);
  }
  t.equal(hook.received.length, DELIVERIES_IN_FLIGHT, 'nothing more was sent meanwhile');
  const [leased] = await stack.db.query<{ n: number }>("select count(*)::int as n from webhook_deliveries where status <> 'succeeded'");
  t.equal(leased?.n, DELIVERIES_IN_FLIGHT + WAITING, 'every delivery is still owed');

  nats.thaw();
  const gateway = new CrmProcess('gateway (after the outage)', ['gateway'], stack.envFor('gateway'));
  extra.push(gateway);
  const [, port] = await gateway.waitFor(/"port":(\d+)/);
  const baseUrl = `http://127.0.0.1:${port}`;
  await stack.startWorker('webhooks');
  await waitUntilReady(baseUrl);

  const after = await client(baseUrl, token).post('/v1/contacts', { first_name: 'After outage', phone: '+14155569999' });
  t.equal(after.status, 201, 'the other contacts worker and a new gateway serve writes');
  const sentBefore = new Set(hanging.map((r) => r.event.id));
  const rest = await hook.waitFor(WAITING + 1, (r) => !sentBefore.has(r.event.id), 15_000).catch((error: unknown) => error as Error);
  t.notOk(rest instanceof Error, `the deliveries never attempted and the new event's go out from the next copy (${rest instanceof Error ? rest.message : 'all sent'})`);
  for (const until = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const [row] = await stack.db.query<{ n: number }>('select count(*)::int as n from event_outbox');
    if (row?.n === 0 || Date.now() > until) {
      t.equal(row?.n, 0, 'the outbox is relayed empty');
      break;
    }
  }

  t.equal(await gateway.stop('SIGTERM'), 0, 'with NATS there, a gateway stops as before');
  t.notMatch(await gateway.settledText(), /NATS unreachable at shutdown/, 'its drain is confirmed, not cut');
});
