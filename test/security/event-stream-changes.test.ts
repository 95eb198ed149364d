import { nanos, RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import t from 'tap';
import { type NatsRole } from '../../shared/bus/nats-permissions.js';
import { eventStreamName, eventStreamSubjects } from '../../shared/events/event-stream.js';
import { natsEnvOf } from '../helpers/nats-server.js';
import { connectAs as connectToNatsAs, startPrivateNats } from '../helpers/private-services.js';
import { runCrm } from '../helpers/process.js';

/**
 * Before, the webhooks worker's NATS identity could update the event stream, to keep its
 * retention as configured. An update may change the stream's subjects too: with
 * `<ns>.tokens.>` added, the stream stored every sign-in request (the password in it) for
 * that identity to read through its consumer, and answered each request with its
 * acknowledgement before the tokens worker could. Now the relay only creates a missing
 * stream, and the command line (`crm events setup-stream`) changes its retention.
 */
const nats = await startPrivateNats();
t.teardown(() => nats.stop());
const ns = nats.plan.namespace;
const stream = eventStreamName(ns);

const connectAs = (who: NatsRole | 'test-admin'): Promise<NatsConnection> => connectToNatsAs(t, nats, who);

const admin = await (await connectAs('test-admin')).jetstreamManager();
await admin.streams.add({ name: stream, subjects: [eventStreamSubjects(ns)], storage: StorageType.File, retention: RetentionPolicy.Limits, max_age: nanos(3_600_000) });

t.test("the webhooks worker's identity cannot change the event stream", async (t) => {
  const webhooks = await (await connectAs('worker-webhooks')).jetstreamManager({ checkAPI: false });
  await t.rejects(webhooks.streams.update(stream, { subjects: [eventStreamSubjects(ns), `${ns}.tokens.>`] }), 'adding the tokens worker\'s subjects is refused');
  t.same((await admin.streams.info(stream)).config.subjects, [eventStreamSubjects(ns)], 'the stream takes only events');
});

t.test('crm events setup-stream brings the stream to the configured retention', async (t) => {
  const run = await runCrm(['events', 'setup-stream'], { ...process.env, ...natsEnvOf(nats.plan, 'cli'), EVENTS_STREAM_MAX_AGE: '2d' });
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, `The event stream ${stream} keeps events for 172800 s`);
  const { config } = await admin.streams.info(stream);
  t.equal(config.max_age, nanos(2 * 86_400_000), 'the retention changed');
  t.same(config.subjects, [eventStreamSubjects(ns)], 'and nothing else');
});
