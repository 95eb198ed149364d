import { rm } from 'node:fs/promises';
import path from 'node:path';
import { connect, nkeyAuthenticator } from 'nats';
import t, { type Test } from 'tap';
import { eventStreamName, webhookConsumerName } from '../../shared/events/event-stream.js';
import { client } from '../helpers/http.js';
import { startPrivateNats } from '../helpers/private-services.js';
import { startStack } from '../helpers/stack.js';
import { receiversClosedWith, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhook deliveries survive the loss of the event stream (deleted by hand, or a NATS that
 * lost its JetStream storage): the relay publishes into a new stream, and the webhooks
 * worker notices that its durable consumer is gone, creates it again and delivers. Real
 * Postgres and a NATS of the test's own (it is restarted); the receiver on 127.0.0.1 is
 * admitted by the development switch.
 */
const nats = await startPrivateNats();
const stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, workers: { webhooks: 1 }, services: { nats } });
t.teardown(async () => {
  await stack.stop();
  await nats.stop();
});
const namespace = nats.plan.namespace;
const stream = eventStreamName(namespace);

const watcher = await connect({ servers: stack.natsWatcher.url, authenticator: nkeyAuthenticator(new TextEncoder().encode(stack.natsWatcher.seed)), maxReconnectAttempts: -1 });
t.teardown(() => watcher.close());
const jsm = await watcher.jetstreamManager();

const receiver = receiversClosedWith(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'events:read', 'webhooks:write']));

let phone = 100;
/** A new contact over REST; its id. Tried again while the gateway answers 503 (NATS just came back). */
async function write(): Promise<string> {
  const until = Date.now() + 10_000;
  for (;;) {
    const res = await api.post<{ id: string }>('/v1/contacts', { first_name: 'Recovery', phone: `+1 415 555 0${phone++}` });
    if (res.status === 201) return res.body.id;
    if (res.status !== 503 || Date.now() > until) throw new Error(`contact not created: ${res.status} ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Long enough for a missing consumer to be noticed and made again; without that, never. */
const RECOVERY_BOUND_MS = 20_000;

/** A receiver subscribed to new contacts, having received one (so the consumer is running). */
async function subscribed(): Promise<WebhookReceiver> {
  const hook = await receiver();
  const endpoint = await api.post<{ secret: string }>('/v1/webhook-endpoints', { url: hook.url, enabled_events: ['contact.created'] });
  if (endpoint.status !== 201) throw new Error(`endpoint not created: ${JSON.stringify(endpoint.body)}`);
  hook.secret = endpoint.body.secret;
  const before = await write();
  await hook.waitFor(1, (r) => r.event.data.object.id === before);
  return hook;
}

/** A contact written now reaches `hook` within the bound, and the consumer is back. */
async function deliveredAfterLoss(t: Test, hook: WebhookReceiver): Promise<void> {
  const lostAt = performance.now();
  const after = await write();
  const [got] = await hook.waitFor(1, (r) => r.event.data.object.id === after, RECOVERY_BOUND_MS);
  t.comment(`delivered ${Math.round((got?.receivedAt ?? lostAt) - lostAt)} ms after the write`);
  t.ok(got?.verified, `the event written after the loss is delivered, verified, within ${RECOVERY_BOUND_MS / 1000} s`);
  const consumers = await jsm.consumers.list(stream).next();
  t.same(
    consumers.map((c) => c.name),
    [webhookConsumerName(namespace)],
    'the durable consumer exists again',
  );
}

t.test('after the event stream is deleted, the next event still reaches the endpoint', async (t) => {
  const hook = await subscribed();
  t.ok(await jsm.streams.delete(stream), 'the event stream (and with it the webhook consumer) deleted');
  await deliveredAfterLoss(t, hook);
  const worker = stack.workers.find((w) => w.label === 'worker webhooks');
  t.match((await worker?.settledText()) ?? '', /event stream or its webhook consumer is gone/, 'the worker said so in a warning');
});

t.test('after NATS restarts without its JetStream storage, the next event still reaches the endpoint', async (t) => {
  const hook = await subscribed();
  // restart() kills the server at once, then waits downMs: the store goes in between.
  const restarting = nats.restart({ hard: true, downMs: 2_000 });
  await new Promise((r) => setTimeout(r, 800));
  await rm(path.join(nats.plan.dir, 'store'), { recursive: true, force: true });
  await restarting;
  // Asked until the watcher's connection is back.
  let streams: string[] | null = null;
  for (const until = Date.now() + 10_000; streams === null && Date.now() < until; ) {
    streams = await jsm.streams.names().next().catch(() => null);
    if (streams === null) await new Promise((r) => setTimeout(r, 100));
  }
  t.same(streams, [], 'NATS came back with no streams');
  await deliveredAfterLoss(t, hook);
});
