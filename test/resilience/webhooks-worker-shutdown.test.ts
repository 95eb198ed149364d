import t from 'tap';
import { client } from '../helpers/http.js';
import { startStack } from '../helpers/stack.js';
import { deliveriesLeasedBehindHangingOnes, ONE_ENDPOINT_MAY_HOLD_EVERY_SLOT } from '../helpers/leased-deliveries.js';
import { receiversClosedWith } from '../helpers/webhook-receiver.js';
import { DELIVERIES_IN_FLIGHT } from '../../workers/webhooks/deliveries/deliveries-in-flight.js';

/**
 * A webhooks worker stopped (SIGTERM, a rolling update) with every attempt slot taken by a
 * receiver that hangs and more deliveries leased to it, waiting for a slot. Before, it left
 * those leased ones as they were: no copy sent them until their lease ended, WEBHOOK_TIMEOUT
 * plus 30 s later (an hour and more with the longest timeout). Now it hands them back at its
 * shutdown and the next copy sends them at once.
 */
const WEBHOOK_TIMEOUT_S = 4;
const stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT: `${WEBHOOK_TIMEOUT_S}s`, ...ONE_ENDPOINT_MAY_HOLD_EVERY_SLOT } });
t.teardown(() => stack.stop());
const receiver = receiversClosedWith(t);
const ws = await stack.bootstrap();
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:read', 'contacts:write', 'events:read', 'webhooks:write']));
const WAITING = 8;

t.test('deliveries leased to a stopping copy and never attempted go out from the next copy at once', async (t) => {
  // The first attempts hang until they time out, holding every slot of the copy; later ones succeed.
  const { hook, hanging } = await deliveriesLeasedBehindHangingOnes(t, api, stack.db, receiver, { waiting: WAITING, namePrefix: 'Hooked', phoneBase: 5552000 });

  const first = stack.workers.find((w) => w.label === 'worker webhooks');
  if (!first) throw new Error('no webhooks worker');
  const stopping = Date.now();
  t.equal(await first.stop('SIGTERM', 60_000), 0, 'the stopping copy exits 0');
  t.ok(Date.now() - stopping < (WEBHOOK_TIMEOUT_S + 5) * 1000, 'after its attempts in flight, within WEBHOOK_TIMEOUT');
  t.equal(hook.received.length, DELIVERIES_IN_FLIGHT, 'nothing more was sent meanwhile');

  await stack.startWorker('webhooks');
  const startedAt = Date.now();
  const sentBefore = new Set(hanging.map((r) => r.event.id));
  const rest = await hook.waitFor(WAITING, (r) => !sentBefore.has(r.event.id), 10_000).catch((error: unknown) => error as Error);
  t.notOk(rest instanceof Error, `the ${WAITING} deliveries never attempted are sent by the next copy within 10 s (${rest instanceof Error ? rest.message : `${Date.now() - startedAt} ms`})`);
  if (!(rest instanceof Error)) t.ok(rest.every((r) => r.verified), 'signed as any delivery');
  // The receiver answers before the worker records the success: wait for the records, not the requests.
  let succeeded = 0;
  for (const until = Date.now() + 10_000; succeeded < WAITING && Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    succeeded = (await stack.db.query<{ n: number }>("select count(*)::int as n from webhook_deliveries where status = 'succeeded'"))[0]?.n ?? 0;
  }
  t.equal(succeeded, WAITING, 'each of them delivered once');
  t.equal(hook.received.filter((r) => !sentBefore.has(r.event.id)).length, WAITING, 'and sent once');
});
