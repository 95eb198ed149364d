import { RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import t from 'tap';
import { eventSubjectOf as broadcastSubjectOf } from '../../shared/bus/bus-event.js';
import { type NatsRole } from '../../shared/bus/nats-permissions.js';
import { TOKEN_REVOKED_EVENT } from '../../shared/contracts/broadcasts.js';
import { eventStreamName, eventStreamSubjects } from '../../shared/events/event-stream.js';
import { rateLimitBucketOf } from '../../shared/rate-limit/rate-limit-bucket.js';
import { natsEnvOf } from '../helpers/nats-server.js';
import { connectAs as connectToNatsAs, startPrivateNats } from '../helpers/private-services.js';
import { CrmProcess } from '../helpers/process.js';

/**
 * JetStream answers an API request by publishing to the request's reply subject, whatever
 * it is, and a direct get answers with the stored value itself. Before, a gateway's NATS
 * key wrote a forged event into its rate-limit bucket, then asked for it by direct get with
 * an event subject as the reply subject: JetStream published it there, the event stream
 * stored it, and the webhooks worker would deliver it to the workspace's endpoints. A
 * broadcast subject worked the same way. Gateways now read their bucket through the stream
 * API, whose answers are JetStream's own JSON, and may no longer make direct gets.
 */
const nats = await startPrivateNats();
t.teardown(() => nats.stop());
const ns = nats.plan.namespace;
const bucket = rateLimitBucketOf(ns);

const connectAs = (who: NatsRole | 'test-admin'): Promise<NatsConnection> => connectToNatsAs(t, nats, who);

const admin = await connectAs('test-admin');
const jsm = await admin.jetstreamManager();
await jsm.streams.add({ name: eventStreamName(ns), subjects: [eventStreamSubjects(ns)], storage: StorageType.Memory, retention: RetentionPolicy.Limits });
// The bucket as gateways made it before: direct gets allowed.
await admin.jetstream().views.kv(bucket, { history: 1, allow_direct: true });

const forged = JSON.stringify({ id: 'evt_forged', type: 'contact.created', workspace_id: 'ws_victim', data: { name: 'forged' } });

/** The attack: the value written with the gateway's key, then fetched with `replyTo` as the reply subject. */
async function aimStoredValueAt(replyTo: string): Promise<void> {
  const gw = await connectAs('gateway');
  gw.publish(`$KV.${bucket}.forged`, new TextEncoder().encode(forged));
  gw.publish(`$JS.API.DIRECT.GET.KV_${bucket}.$KV.${bucket}.forged`, new Uint8Array(), { reply: replyTo });
  await gw.flush();
  await new Promise((r) => setTimeout(r, 1000));
}

t.test("a gateway's key cannot have JetStream store an event of its making", async (t) => {
  await aimStoredValueAt(`${ns}.events.ws_victim.contact.created`);
  const { state } = await jsm.streams.info(eventStreamName(ns));
  const stored: string[] = [];
  for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) stored.push(new TextDecoder().decode((await jsm.streams.getMessage(eventStreamName(ns), { seq })).data));
  t.notMatch(stored.join('\n'), 'evt_forged', 'the forged event is not in the event stream');
});

t.test("nor send a broadcast of its making", async (t) => {
  const listener = await connectAs('gateway');
  const heard: string[] = [];
  listener.subscribe(broadcastSubjectOf(ns, TOKEN_REVOKED_EVENT), { callback: (_err, msg) => heard.push(msg.string()) });
  await listener.flush();
  await aimStoredValueAt(broadcastSubjectOf(ns, TOKEN_REVOKED_EVENT));
  t.same(heard, [], 'no gateway heard it');
});

t.test('a gateway still counts in that bucket, reading it through the stream API', async (t) => {
  const gateway = new CrmProcess('gateway', ['gateway'], { PATH: process.env.PATH, ...natsEnvOf(nats.plan, 'gateway'), PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'info', RATE_LIMIT_SIGN_IN_PER_MINUTE: '2', RATE_LIMIT_STORE_FAILURE: 'closed' });
  t.teardown(() => gateway.stop());
  const [, port] = await gateway.waitFor(/"port":(\d+)/);
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.test&password=guess' });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  // 403: past the limiter, refused for want of a CSRF token; 429: the shared count's limit.
  t.same(statuses, [403, 403, 429], 'two attempts, then the limit');
  t.notMatch(await gateway.settledText(), /rate limit store unreachable|rate-limit bucket not opened/, 'counted in the shared bucket');
});
