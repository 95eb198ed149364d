import { connect, headers as natsHeaders, nkeyAuthenticator, RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import t from 'tap';
import { encode } from '../../shared/bus/codec.js';
import { HEADER } from '../../shared/bus/headers.js';
import { inboxPrefixOf, type NatsRole } from '../../shared/bus/nats-permissions.js';
import { subjectOf } from '../../shared/bus/operation.js';
import { TOKEN_REVOKED_EVENT } from '../../shared/contracts/broadcasts.js';
import { healthOf } from '../../shared/contracts/health.js';
import { eventStreamName, eventStreamSubjects } from '../../shared/events/event-stream.js';
import { eventSubjectOf as broadcastSubjectOf } from '../../shared/bus/bus-event.js';
import { busUnderAttack } from '../helpers/bus-under-attack.js';

/**
 * A worker answers a request by publishing to the request's reply subject, and NATS lets a
 * worker publish there whatever the subject is (allow_responses). Before, a gateway's
 * identity, which may not publish to the event stream, named an event subject as the reply
 * subject of a request, and the worker's answer was stored in the stream as an event; or a
 * broadcast, which only workers may send, and every gateway heard it. A worker now serves
 * only requests whose reply subject is an inbox of a role that sends requests (gateways and
 * the command line), and refuses others before doing any work.
 */
const { nats, worker } = await busUnderAttack(t);
const ns = nats.plan.namespace;
const stream = eventStreamName(ns);

async function connectAs(who: NatsRole | 'test-admin'): Promise<NatsConnection> {
  const seed = who === 'test-admin' ? nats.plan.admin.seed : nats.plan.keys[who].seed;
  const nc = await connect({
    servers: nats.url,
    reconnect: false,
    authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)),
    ...(who === 'gateway' || who === 'cli' ? { inboxPrefix: inboxPrefixOf(ns, who) } : {}),
  });
  t.teardown(() => nc.close());
  return nc;
}

const admin = await connectAs('test-admin');
const jsm = await admin.jetstreamManager();
await jsm.streams.add({ name: stream, subjects: [eventStreamSubjects(ns)], storage: StorageType.File, retention: RetentionPolicy.Limits });
const gateway = await connectAs('gateway');
const health = subjectOf(ns, healthOf('tokens'));

/** A well-formed request as a gateway sends one, with `replyTo` as its reply subject. */
async function sendWithReplyTo(replyTo: string): Promise<void> {
  const h = natsHeaders();
  h.set(HEADER.requestId, 'req_reply_to');
  h.set(HEADER.deadline, String(Date.now() + 5000));
  gateway.publish(health, encode({ context: null, input: {} }), { reply: replyTo, headers: h });
  await gateway.flush();
  // Time for the worker to answer (or not).
  await new Promise((r) => setTimeout(r, 1500));
}

t.test("a gateway cannot store a worker's answer as an event", async (t) => {
  await sendWithReplyTo(`${ns}.events.ws_victim.contact.created`);
  t.equal((await jsm.streams.info(stream)).state.messages, 0, 'nothing was stored in the event stream');
});

t.test("a gateway cannot have a worker send a broadcast for it", async (t) => {
  const listener = await connectAs('gateway');
  const received: string[] = [];
  listener.subscribe(broadcastSubjectOf(ns, TOKEN_REVOKED_EVENT), { callback: (_err, msg) => received.push(msg.string()) });
  await listener.flush();
  await sendWithReplyTo(broadcastSubjectOf(ns, TOKEN_REVOKED_EVENT));
  t.same(received, [], 'no gateway heard a revocation the tokens worker never made');
  t.match(await worker.settledText(), /reply subject is no requester's inbox/, 'the worker says why it did not answer');
});

t.test('requests from the roles that make them are still answered', async (t) => {
  for (const role of ['gateway', 'cli'] as const) {
    const nc = await connectAs(role);
    const reply = await nc.request(health, encode({ context: null, input: {} }), { timeout: 5000 });
    t.match(reply.string(), /"ok":true/, `a ${role}'s request gets its answer`);
  }
});
