import t from 'tap';
import { client } from '../helpers/http.js';
import { startStack } from '../helpers/stack.js';
import { receiversClosedWith } from '../helpers/webhook-receiver.js';

/**
 * One workspace's endpoints that accept connections and never answer hold at most its
 * share of a webhooks worker's attempt slots: another workspace's delivery is sent at
 * once, not after the first's attempts time out. One webhooks worker, so every delivery
 * competes for the same 32 slots; receivers on 127.0.0.1 only.
 */
const WEBHOOK_TIMEOUT_MS = 6_000;
const stack = await startStack({
  env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT: `${WEBHOOK_TIMEOUT_MS}ms`, WEBHOOK_RETRY_SCHEDULE: '1m' },
  workers: { webhooks: 1 },
});
t.teardown(() => stack.stop());
const receiver = receiversClosedWith(t);

async function workspace() {
  const ws = await stack.bootstrap({ defaultCountry: 'US' });
  const token = await stack.token(ws.workspace.id, ['contacts:write', 'contacts:read', 'events:read', 'webhooks:write']);
  return client(stack.baseUrl, token);
}

t.test("a workspace whose endpoints never answer leaves slots for another workspace's delivery", async (t) => {
  const silent = await receiver(() => 'hang');
  const answering = await receiver(() => 200);
  const hog = await workspace();
  const other = await workspace();

  // The most endpoints a workspace may have, each its own URL on the receiver that never answers.
  for (let i = 0; i < 16; i++) {
    const res = await hog.post('/v1/webhook-endpoints', { url: `${silent.url}?fair-share=${i}`, enabled_events: ['contact.created'] });
    t.equal(res.status, 201, `endpoint ${i} created`);
  }
  const ours = await other.post<{ secret: string }>('/v1/webhook-endpoints', { url: answering.url, enabled_events: ['contact.created'] });
  t.equal(ours.status, 201);
  answering.secret = ours.body.secret;

  // 6 writes: 96 deliveries that each hold a slot for WEBHOOK_TIMEOUT, three times the worker's slots.
  for (let i = 0; i < 6; i++) t.equal((await hog.post('/v1/contacts', { first_name: 'Fair Share Hog', phone: `+1 415 555 07${10 + i}` })).status, 201);
  await silent.waitFor(16, undefined, WEBHOOK_TIMEOUT_MS);

  const written = performance.now();
  t.equal((await other.post('/v1/contacts', { first_name: 'Fair Share Other', phone: '+1 415 555 0799' })).status, 201);
  const [got] = await answering.waitFor(1, undefined, 4 * WEBHOOK_TIMEOUT_MS);
  const waited = (got?.receivedAt ?? Infinity) - written;
  t.ok(got?.verified, 'the delivery verifies');
  t.ok(waited < WEBHOOK_TIMEOUT_MS / 2, `the other workspace's delivery arrived in ${Math.round(waited)} ms, not after the silent endpoints' timeouts`);
});
