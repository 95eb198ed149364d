import { nanos, StorageType, type JetStreamManager, type NatsConnection, type StreamInfo } from 'nats';
import t from 'tap';
import { encode } from '../../shared/bus/codec.js';
import { subjectOf } from '../../shared/bus/operation.js';
import { signIn } from '../../shared/contracts/sessions.js';
import { workerRole } from '../../shared/bus/nats-permissions.js';
import { RATE_LIMIT_KEY_TTL_MS, rateLimitBucketOf } from '../../shared/rate-limit/rate-limit-bucket.js';
import { natsEnvOf } from '../helpers/nats-server.js';
import { connectAs, startPrivateNats, type PrivateNats } from '../helpers/private-services.js';
import { CrmProcess } from '../helpers/process.js';
import { prepareEnvironment } from '../helpers/stack.js';

/**
 * The rate-limit bucket is the JetStream stream KV_<bucket>, and NATS cannot limit what a
 * stream-create request configures. Gateways could create it, so anyone holding the
 * gateway's NATS key could create it first with the tokens worker's subjects added, and read
 * every sign-in request, password included, from it: what a gateway's identity must never
 * see. Now a gateway may not create streams at all; one that finds no bucket asks a webhooks
 * worker (which already creates the event stream), and it makes the bucket as the service configures it. A bucket made otherwise (by a key of
 * an earlier version, say) is refused, and named, by the gateways.
 */
/** A connection with the gateway's NATS key, as any gateway (or whoever took its key) has. */
const gatewayKey = (nats: PrivateNats): Promise<NatsConnection> => connectAs(t, nats, 'gateway');

const limitsOff = Object.fromEntries(['TOKEN', 'GRANT', 'SESSION', 'SIGN_IN', 'FAILED_AUTH'].map((kind) => [`RATE_LIMIT_${kind}_PER_MINUTE`, '0']));

/** A gateway with every rate limit off: it counts nothing, and still opens its bucket. */
async function startGateway(env: NodeJS.ProcessEnv): Promise<CrmProcess> {
  const gateway = new CrmProcess('gateway', ['gateway'], { ...env, PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'info', ...limitsOff });
  t.teardown(() => gateway.stop());
  await gateway.waitFor(/"msg":"gateway listening"/);
  return gateway;
}

const startGatewayOn = (nats: PrivateNats): Promise<CrmProcess> => startGateway({ PATH: process.env.PATH, ...natsEnvOf(nats.plan, 'gateway') });

/** The attack: the bucket's stream, created with the tokens worker's subjects too. */
async function captureTokensRequests(jsm: JetStreamManager, nats: PrivateNats): Promise<string> {
  const bucket = rateLimitBucketOf(nats.plan.namespace);
  const subjects = [`$KV.${bucket}.>`, `${nats.plan.namespace}.tokens.>`];
  return jsm.streams.add({ name: `KV_${bucket}`, subjects, storage: StorageType.Memory, no_ack: true }).then(
    () => 'created',
    (error: Error) => `refused: ${error.message}`,
  );
}

async function streamOnceThere(jsm: JetStreamManager, stream: string): Promise<StreamInfo | null> {
  for (let i = 0; i < 300; i++) {
    const info = await jsm.streams.info(stream).catch(() => null);
    if (info) return info;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

t.test("the gateway's key cannot create the bucket, in any configuration", async (t) => {
  const nats = await startPrivateNats();
  t.teardown(() => nats.stop());
  const jsm = await (await gatewayKey(nats)).jetstreamManager({ checkAPI: false, timeout: 2000 });
  // NATS drops a publish its permissions refuse: the request is refused by the server, or waits out its timeout.
  t.match(await captureTokensRequests(jsm, nats), /^refused: .*(permission|timeout)/i, "not with the tokens worker's subjects");
  const bucket = rateLimitBucketOf(nats.plan.namespace);
  const plain = await jsm.streams.add({ name: `KV_${bucket}`, subjects: [`$KV.${bucket}.>`], storage: StorageType.Memory }).then(
    () => 'created',
    (error: Error) => `refused: ${error.message}`,
  );
  t.match(plain, /^refused: .*(permission|timeout)/i, 'not even as the service would make it');
  const admin = await (await connectAs(t, nats, 'test-admin')).jetstreamManager();
  t.equal(await admin.streams.info(`KV_${bucket}`).then(() => 'exists', () => 'missing'), 'missing', 'and no stream was made');
});

t.test('a gateway that finds no bucket has a webhooks worker make it, as configured', async (t) => {
  const nats = await startPrivateNats();
  const env = await prepareEnvironment({}, { nats });
  t.teardown(async () => {
    await env.stop();
    await nats.stop();
  });
  // The gateway first, as when every process of a deployment starts at once: it keeps asking.
  const gateway = await startGateway(env.envFor('gateway'));
  await gateway.waitFor(/"msg":"rate-limit bucket not opened[^\n]*/);
  const worker = new CrmProcess('worker webhooks', ['worker', 'webhooks'], env.envFor(workerRole('webhooks')));
  t.teardown(() => worker.stop());
  await worker.waitFor(/"msg":"worker ready"/);

  const admin = await (await connectAs(t, nats, 'test-admin')).jetstreamManager();
  const bucket = rateLimitBucketOf(nats.plan.namespace);
  const info = await streamOnceThere(admin, `KV_${bucket}`);
  t.ok(info, 'the bucket exists once a webhooks worker runs');
  t.same(info?.config.subjects, [`$KV.${bucket}.>`], 'capturing its own keys only');
  t.equal(info?.config.allow_direct, false, 'read through the stream API, never by direct get');
  t.equal(info?.config.max_age, nanos(RATE_LIMIT_KEY_TTL_MS), 'its keys expire after two windows');

  const gw = await gatewayKey(nats);
  await gw.request(subjectOf(nats.plan.namespace, signIn), encode({ context: null, input: { email: 'ada@example.test', password: 'a secret', ip: '203.0.113.1' } }), { timeout: 5000 }).catch(() => undefined);
  t.equal((await admin.streams.info(`KV_${bucket}`)).state.messages, 0, 'and no sign-in request is stored in it');
});

t.test('a bucket that captures other subjects is refused, and the log says which', async (t) => {
  const nats = await startPrivateNats();
  t.teardown(() => nats.stop());
  // A key that could create it: the gateway's, before this version; here the test's administrator.
  t.equal(await captureTokensRequests(await (await connectAs(t, nats, 'test-admin')).jetstreamManager(), nats), 'created');
  const gateway = await startGatewayOn(nats);
  const [line] = await gateway.waitFor(/[^\n]*"msg":"rate-limit bucket not opened[^\n]*/);
  t.match(line, `also captures ${nats.plan.namespace}.tokens.>`, 'the operator learns what the stream captures');
  t.match(line, /nats stream rm KV_/, 'and what to do');
});

t.test('a bucket that republishes its values (say, as events) is refused too', async (t) => {
  // Republishing put whatever a gateway's key wrote into the bucket on an event's subject, for webhooks to deliver.
  const nats = await startPrivateNats();
  t.teardown(() => nats.stop());
  const jsm = await (await connectAs(t, nats, 'test-admin')).jetstreamManager();
  const bucket = rateLimitBucketOf(nats.plan.namespace);
  // A key named contact.created lands on <ns>.events.ws_victim.contact.created.
  const dest = `${nats.plan.namespace}.events.ws_victim.>`;
  await jsm.streams.add({ name: `KV_${bucket}`, subjects: [`$KV.${bucket}.>`], storage: StorageType.Memory, republish: { src: `$KV.${bucket}.>`, dest } });
  const gateway = await startGatewayOn(nats);
  const [line] = await gateway.waitFor(/[^\n]*"msg":"rate-limit bucket not opened[^\n]*/);
  t.match(line, `republishes its values to ${dest}`, 'the operator learns where it republishes');
});
