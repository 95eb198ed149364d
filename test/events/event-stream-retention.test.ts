import { randomBytes } from 'node:crypto';
import { connect, nanos } from 'nats';
import t from 'tap';
import { loadConfig } from '../../shared/config.js';
import { createEventStreamIfMissing, ensureEventStream } from '../../workers/webhooks/relay/event-stream-setup.js';
import { NATS_URL } from '../helpers/environment.js';

/** EVENTS_STREAM_MAX_AGE shapes the stream on a real JetStream server, and a changed setting updates a stream that exists (one server here: replicas stay at their default of 1). */
t.test('the event stream keeps events as long as EVENTS_STREAM_MAX_AGE says, and follows a change of it', async (t) => {
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  const namespace = `t${randomBytes(5).toString('hex')}`;
  t.teardown(async () => {
    await jsm.streams.delete(`${namespace}-events`).catch(() => undefined);
    await nc.close();
  });

  const settings = (maxAge: string) => loadConfig({ EVENTS_STREAM_MAX_AGE: maxAge }).events;
  t.equal(settings('90m').streamMaxAgeMs, 90 * 60_000, 'a duration as the README writes it');
  t.throws(() => loadConfig({ EVENTS_STREAM_MAX_AGE: 'forever' }), /EVENTS_STREAM_MAX_AGE/, 'a value that is not a duration is refused at start');

  await ensureEventStream(jsm, namespace, settings('2h'));
  let info = await jsm.streams.info(`${namespace}-events`);
  t.equal(info.config.max_age, nanos(2 * 3_600_000), 'created with the configured retention');
  t.same(info.config.subjects, [`${namespace}.events.>`]);
  t.equal(info.config.num_replicas, 1);

  await ensureEventStream(jsm, namespace, settings('30d'));
  info = await jsm.streams.info(`${namespace}-events`);
  t.equal(info.config.max_age, nanos(30 * 86_400_000), 'an existing stream is brought to a changed setting');
  t.equal(info.config.duplicate_window, nanos(10 * 60_000), 'duplicates are still dropped for ten minutes');

  await ensureEventStream(jsm, namespace, settings('5m'));
  info = await jsm.streams.info(`${namespace}-events`);
  t.equal(info.config.duplicate_window, nanos(5 * 60_000), 'the duplicate window never outlasts the retention');

  // The relay's setup creates a missing stream but never changes one (only `crm events setup-stream` may).
  t.equal(await createEventStreamIfMissing(jsm, namespace, settings('5m')), 'as configured', 'a stream as configured is left alone');
  t.equal(await createEventStreamIfMissing(jsm, namespace, settings('1d')), 'differs', 'another retention is reported');
  t.equal((await jsm.streams.info(`${namespace}-events`)).config.max_age, nanos(5 * 60_000), 'and not applied');
});
