import { StorageType, type NatsConnection } from 'nats';
import t from 'tap';
import { encode } from '../../shared/bus/codec.js';
import { subjectOf } from '../../shared/bus/operation.js';
import { signIn } from '../../shared/contracts/sessions.js';
import { rateLimitBucketOf } from '../../shared/rate-limit/rate-limit-bucket.js';
import { natsEnvOf } from '../helpers/nats-server.js';
import { connectAs, startPrivateNats, type PrivateNats } from '../helpers/private-services.js';
import { CrmProcess } from '../helpers/process.js';

/**
 * A gateway may create its rate-limit bucket, the JetStream stream KV_<bucket>, and NATS
 * cannot limit what that request configures. Before, the bucket was made at the first
 * counted request (never, with every limit off), so anyone holding the gateway's NATS key
 * could create it first with the tokens worker's subjects added, and read every sign-in
 * request, password included, from it: what a gateway's identity must never see. Now a
 * gateway opens the bucket as it starts, so the stream is the service's own before anyone
 * else's, and refuses (and names) a bucket that captures other subjects.
 */
/** A connection with the gateway's NATS key, as any gateway (or whoever took its key) has. */
const gatewayKey = (nats: PrivateNats): Promise<NatsConnection> => connectAs(t, nats, 'gateway');

/** A gateway with every rate limit off: it counts nothing, and needs no bucket for that. */
async function startGatewayOn(nats: PrivateNats): Promise<CrmProcess> {
  const limitsOff = Object.fromEntries(['TOKEN', 'GRANT', 'SESSION', 'SIGN_IN', 'FAILED_AUTH'].map((kind) => [`RATE_LIMIT_${kind}_PER_MINUTE`, '0']));
  const gateway = new CrmProcess('gateway', ['gateway'], { PATH: process.env.PATH, ...natsEnvOf(nats.plan, 'gateway'), PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'info', ...limitsOff });
  t.teardown(() => gateway.stop());
  await gateway.waitFor(/"msg":"gateway listening"/);
  return gateway;
}

/** The attack: the bucket's stream, created with the tokens worker's subjects too. */
async function captureTokensRequests(nats: PrivateNats): Promise<string> {
  const jsm = await (await gatewayKey(nats)).jetstreamManager({ checkAPI: false });
  const bucket = rateLimitBucketOf(nats.plan.namespace);
  const subjects = [`$KV.${bucket}.>`, `${nats.plan.namespace}.tokens.>`];
  return jsm.streams.add({ name: `KV_${bucket}`, subjects, storage: StorageType.Memory, no_ack: true }).then(
    () => 'created',
    (error: Error) => `refused: ${error.message}`,
  );
}

t.test('a running gateway has made its bucket: the gateway key cannot make a capturing one', async (t) => {
  const nats = await startPrivateNats();
  t.teardown(() => nats.stop());
  await startGatewayOn(nats);
  const jsm = await (await gatewayKey(nats)).jetstreamManager({ checkAPI: false });
  const stream = `KV_${rateLimitBucketOf(nats.plan.namespace)}`;
  for (let i = 0; i < 50 && !(await jsm.streams.info(stream).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 100));
  t.match(await captureTokensRequests(nats), /^refused/, 'creating the stream with other subjects is refused: it exists, as the service made it');

  const gw = await gatewayKey(nats);
  await gw.request(subjectOf(nats.plan.namespace, signIn), encode({ context: null, input: { email: 'ada@example.test', password: 'a secret', ip: '203.0.113.1' } }), { timeout: 1000 }).catch(() => undefined);
  t.equal((await jsm.streams.info(stream)).state.messages, 0, 'and no sign-in request is stored in it');
});

t.test('a bucket that captures other subjects is refused, and the log says which', async (t) => {
  const nats = await startPrivateNats();
  t.teardown(() => nats.stop());
  t.equal(await captureTokensRequests(nats), 'created', 'before any gateway ran, the gateway key could create it');
  const gateway = await startGatewayOn(nats);
  const [line] = await gateway.waitFor(/[^\n]*"msg":"rate-limit bucket not opened[^\n]*/);
  t.match(line, `also captures ${nats.plan.namespace}.tokens.>`, 'the operator learns what the stream captures');
  t.match(line, /nats stream rm KV_/, 'and what to do');
});

t.test('a bucket that republishes its values (say, as events) is refused too', async (t) => {
  // Republishing put whatever a gateway's key wrote into the bucket on an event's subject, for webhooks to deliver.
  const nats = await startPrivateNats();
  t.teardown(() => nats.stop());
  const jsm = await (await gatewayKey(nats)).jetstreamManager({ checkAPI: false });
  const bucket = rateLimitBucketOf(nats.plan.namespace);
  // A key named contact.created lands on <ns>.events.ws_victim.contact.created.
  const dest = `${nats.plan.namespace}.events.ws_victim.>`;
  await jsm.streams.add({ name: `KV_${bucket}`, subjects: [`$KV.${bucket}.>`], storage: StorageType.Memory, republish: { src: `$KV.${bucket}.>`, dest } });
  const gateway = await startGatewayOn(nats);
  const [line] = await gateway.waitFor(/[^\n]*"msg":"rate-limit bucket not opened[^\n]*/);
  t.match(line, `republishes its values to ${dest}`, 'the operator learns where it republishes');
});
