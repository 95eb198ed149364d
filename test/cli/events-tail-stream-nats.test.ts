import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect, nkeyAuthenticator } from 'nats';
import t, { type Test } from 'tap';
import { newNatsKeyPair } from '../../shared/bus/nats-keys.js';
import type { Event } from '../../shared/contracts/events.js';
import { eventStreamName } from '../../shared/events/event-stream.js';
import { newId } from '../../shared/ids.js';
import { eventStreamPublisher } from '../helpers/event-stream.js';
import { natsEnvOf } from '../helpers/nats-server.js';
import { startPrivateNats } from '../helpers/private-services.js';
import { CrmProcess, runCrm } from '../helpers/process.js';

/**
 * `crm events tail` against a NATS server of this file's own, with no database at all: a
 * fresh deployment's (no stream yet), refusals of the connection or of the stream, and
 * `--since` counted in the events' creation time, as polling counts it.
 */
const nats = await startPrivateNats();
t.teardown(() => nats.stop());
const namespace = nats.plan.namespace;
const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'crm-tail-')), 'data');
t.teardown(() => rm(path.dirname(dataDir), { recursive: true, force: true }));
const cliEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, CRM_DATA_DIR: dataDir, ...natsEnvOf(nats.plan, 'cli') };
const watcher = { url: nats.url, seed: nats.plan.admin.seed };

/** An event as the relay publishes it, created at `createdAt`. */
function eventOf(workspaceId: string, createdAt: Date): Event {
  return {
    object: 'event',
    id: newId('event'),
    type: 'contact.created',
    workspace_id: workspaceId,
    created_at: createdAt.toISOString(),
    request_id: null,
    actor: { kind: 'cli', id: null, name: 'crm', user: null },
    data: { object: { object: 'contact', id: newId('contact') }, previous_attributes: null },
  };
}

const printed = (tail: CrmProcess): Event[] =>
  tail
    .text()
    .split('\n')
    .filter((line) => line.startsWith('{"object":"event"'))
    .map((line) => JSON.parse(line) as Event);

/** The command failed with one line on stderr matching `pattern`, exit code 1, no stack trace. */
function refusedInOneLine(t: Test, result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  t.equal(result.code, 1, 'exit code 1');
  t.equal(result.stdout, '');
  t.equal(result.stderr.trimEnd().split('\n').length, 1, `one line: ${result.stderr}`);
  t.match(result.stderr, pattern);
  t.notMatch(result.stderr, /\bat .+:\d+:\d+/, 'no stack trace');
}

t.test('a stream not created yet is waited for, saying so once, and then followed', async (t) => {
  const workspaceId = newId('workspace');
  const tail = new CrmProcess('events tail (no stream yet)', ['events', 'tail', '--workspace', workspaceId], cliEnv);
  t.teardown(() => tail.stop());
  await tail.waitFor(/waiting for the event stream/, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  t.ok(tail.running, 'still waiting');
  t.equal(
    tail.text(),
    `crm: waiting for the event stream ${namespace}-events on NATS at ${nats.url}: no event has been relayed yet, or BUS_NAMESPACE (${namespace}) is not the deployment's.\n`,
    'one line, once',
  );

  // The relay's first event creates the stream.
  const publisher = await eventStreamPublisher(watcher, namespace);
  t.teardown(() => publisher.close());
  const first = eventOf(workspaceId, new Date());
  await publisher.publish(first);
  await tail.waitFor(new RegExp(first.id), 15_000);
  t.same(printed(tail), [first], 'the first event, once the stream exists');
  t.notOk(existsSync(dataDir), 'no embedded database was started');
});

t.test('NATS refusing the credentials is one line, exit 1', async (t) => {
  const result = await runCrm(['events', 'tail', '--workspace', newId('workspace')], { ...cliEnv, NATS_NKEY_SEED: newNatsKeyPair().seed });
  refusedInOneLine(t, result, /^crm: NATS at \S+ refused the credentials \('Authorization Violation'\): set NATS_NKEY_SEED .*cli role/);
});

t.test("another role's seed, not allowed to read the stream, is one line, exit 1", async (t) => {
  const result = await runCrm(['events', 'tail', '--workspace', newId('workspace')], { ...cliEnv, ...natsEnvOf(nats.plan, 'gateway') });
  refusedInOneLine(t, result, /^crm: NATS at \S+ does not let this identity read the event stream \S+-events .*: NATS_NKEY_SEED must be the cli role's seed/);
});

t.test('NATS without JetStream is one line, exit 1', async (t) => {
  const plain = await startPrivateNats({ jetStream: false });
  t.teardown(() => plain.stop());
  const result = await runCrm(['events', 'tail', '--workspace', newId('workspace')], { ...cliEnv, ...natsEnvOf(plain.plan, 'cli') });
  refusedInOneLine(t, result, /^crm: NATS at \S+ has no JetStream/);
});

t.test('--since counts creation time: an event relayed late but created before it is not printed', async (t) => {
  const workspaceId = newId('workspace');
  const publisher = await eventStreamPublisher(watcher, namespace);
  t.teardown(() => publisher.close());
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
  // A relay backlog: all stored now, created over the last two hours.
  const backlog = [eventOf(workspaceId, hoursAgo(2)), eventOf(workspaceId, hoursAgo(1.5)), eventOf(workspaceId, hoursAgo(0.5)), eventOf(workspaceId, hoursAgo(0.25))];
  for (const event of backlog) await publisher.publish(event);

  const tail = new CrmProcess('events tail --since 1h', ['events', 'tail', '--workspace', workspaceId, '--since', '1h'], cliEnv);
  t.teardown(() => tail.stop());
  const live = eventOf(workspaceId, new Date());
  await publisher.publish(live);
  // In stream order: once the live event is printed, every earlier one was printed or dropped.
  await tail.waitFor(new RegExp(live.id), 30_000);
  t.same(
    printed(tail).map((e) => e.id),
    [backlog[2]?.id, backlog[3]?.id, live.id],
    'only what was created since an hour ago, as polling lists it',
  );
});

t.test('an event the stream stored twice (published again after the duplicate window) is printed once', async (t) => {
  const workspaceId = newId('workspace');
  const publisher = await eventStreamPublisher(watcher, namespace);
  t.teardown(() => publisher.close());
  const tail = new CrmProcess('events tail (a copy stored twice)', ['events', 'tail', '--workspace', workspaceId, '--since', '1m'], cliEnv);
  t.teardown(() => tail.stop());
  const twice = eventOf(workspaceId, new Date());
  await publisher.publish(twice);
  // The same event under another message id: what the stream keeps when the first id has left its duplicate window.
  await publisher.publishRaw(workspaceId, twice.type, JSON.stringify(twice), `${twice.id}-again`);
  const after = eventOf(workspaceId, new Date());
  await publisher.publish(after);
  // In stream order: once the later event is printed, both copies were read.
  await tail.waitFor(new RegExp(after.id), 30_000);
  t.same(
    printed(tail).map((e) => e.id),
    [twice.id, after.id],
    'each event once',
  );
});

t.test('a stream deleted and made again is followed from its start: none of its events is skipped', async (t) => {
  const workspaceId = newId('workspace');
  const publisher = await eventStreamPublisher(watcher, namespace);
  t.teardown(() => publisher.close());
  // Events first, so that the lost stream's sequence numbers run ahead of the new one's.
  const before = [eventOf(workspaceId, new Date()), eventOf(workspaceId, new Date()), eventOf(workspaceId, new Date())];
  for (const event of before) await publisher.publish(event);
  const tail = new CrmProcess('events tail (stream made again)', ['events', 'tail', '--workspace', workspaceId, '--since', '1m'], cliEnv);
  t.teardown(() => tail.stop());
  await tail.waitFor(new RegExp(before[2]?.id ?? 'missing'), 30_000);

  const admin = await connect({ servers: watcher.url, authenticator: nkeyAuthenticator(new TextEncoder().encode(watcher.seed)) });
  t.teardown(() => admin.drain());
  t.ok(await (await admin.jetstreamManager()).streams.delete(eventStreamName(namespace)), 'the event stream deleted');
  // The relay's next event makes the stream again: its first sequence numbers are ones the tail had read.
  const again = await eventStreamPublisher(watcher, namespace);
  t.teardown(() => again.close());
  const after = eventOf(workspaceId, new Date());
  await again.publish(after);
  await tail.waitFor(new RegExp(after.id), 15_000);
  t.same(
    printed(tail).map((e) => e.id),
    [...before.map((e) => e.id), after.id],
    "every event once, the new stream's first included",
  );
  t.match(tail.text(), /the event stream .* was deleted or lost; following it again once it is back/);
  t.ok(tail.running, 'still following');
});

t.test('a NATS restart that keeps the stream is ridden out: the tail goes on, every event printed once', async (t) => {
  // Before, the ordered consumer, which the server keeps in memory only, was gone after the
  // restart, and the tail ended with a stack trace (NatsError: consumer not found, then CONNECTION_DRAINING).
  const workspaceId = newId('workspace');
  const publisher = await eventStreamPublisher(watcher, namespace);
  const before = [eventOf(workspaceId, new Date()), eventOf(workspaceId, new Date()), eventOf(workspaceId, new Date())];
  for (const event of before) await publisher.publish(event);
  const tail = new CrmProcess('events tail (NATS restarted)', ['events', 'tail', '--workspace', workspaceId, '--since', '1m'], cliEnv);
  t.teardown(() => tail.stop());
  await tail.waitFor(new RegExp(before[2]?.id ?? 'missing'), 30_000);
  // Its connection would not outlive the restart.
  await publisher.close();

  await nats.restart({ downMs: 1_000 });
  const again = await eventStreamPublisher(watcher, namespace);
  t.teardown(() => again.close());
  const after = [eventOf(workspaceId, new Date()), eventOf(workspaceId, new Date()), eventOf(workspaceId, new Date())];
  for (const event of after) await again.publish(event);
  await tail.waitFor(new RegExp(after[2]?.id ?? 'missing'), 30_000);
  // A copy printed late would come now.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  t.same(
    printed(tail).map((e) => e.id),
    [...before, ...after].map((e) => e.id),
    'every event once, in order',
  );
  t.ok(tail.running, 'still following');
  t.notMatch(tail.text(), /\n\s+at /, 'no stack trace');
  t.equal(await tail.stop(), 0, 'stops cleanly when interrupted');
});

t.test('Ctrl-C while NATS is away ends the tail at once, exit 0', async (t) => {
  // Before, closing the connection drained it, which waited for NATS to come back: the tail
  // went on until then (or a second Ctrl-C).
  const workspaceId = newId('workspace');
  const publisher = await eventStreamPublisher(watcher, namespace);
  const event = eventOf(workspaceId, new Date());
  await publisher.publish(event);
  await publisher.close();
  const tail = new CrmProcess('events tail (NATS away)', ['events', 'tail', '--workspace', workspaceId, '--since', '1m'], cliEnv);
  t.teardown(() => tail.stop());
  await tail.waitFor(new RegExp(event.id), 30_000);

  const restarting = nats.restart({ downMs: 10_000 });
  t.teardown(() => restarting);
  await tail.waitFor(/NATS connection lost/, 10_000);
  const started = Date.now();
  const code = await tail.stop('SIGINT', 8_000);
  t.equal(code, 0, 'exit 0, not killed');
  t.ok(Date.now() - started < 5_000, `ended within 5 s (${Date.now() - started} ms)`);
  t.notMatch(tail.text(), /\n\s+at /, 'no stack trace');
  await restarting;
});
