import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import t from 'tap';
import type { Event } from '../../shared/contracts/events.js';
import { createTestDatabase } from '../helpers/database.js';
import { client } from '../helpers/http.js';
import { CRM_BIN, nodeCommand, ROOT } from '../helpers/environment.js';
import { CrmProcess, runCrm } from '../helpers/process.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * `crm events tail` without NATS_URL reads the history from the database (polled every
 * second). A burst larger than one page (here 250 events, written before the command starts
 * and read back with --since) is printed whole, oldest first, and each event once, also
 * while later polls overlap the earlier ones.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'events:read']));

t.test('crm events tail by polling prints a burst of several pages whole, once each, oldest first', async (t) => {
  const ids: string[] = [];
  for (let batch = 0; batch < 5; batch++) {
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api.post<{ id: string }>('/v1/contacts', { first_name: 'Burst', last_name: String(batch * 50 + i), phone: `+1415555${String(1000 + batch * 50 + i)}` })),
    );
    t.ok(created.every((c) => c.status === 201), `batch ${batch + 1} of 50 written`);
    ids.push(...created.map((c) => c.body.id));
  }
  const { NATS_URL: _nats, ...withoutNats } = stack.env;
  const tail = new CrmProcess('events tail (polling)', ['events', 'tail', '--workspace', ws.workspace.id, '--type', 'contact.', '--since', '5m'], withoutNats);
  t.teardown(() => tail.stop());

  const printed = () =>
    tail
      .text()
      .split('\n')
      .filter((line) => line.startsWith('{"object":"event"'))
      .map((line) => JSON.parse(line) as Event);
  /** The events printed once `count` are (or after 60 s, whatever was printed). */
  const events = async (count: number): Promise<Event[]> => {
    for (const until = Date.now() + 60_000; printed().length < count && tail.running && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    return printed();
  };
  const burst = await events(250);
  t.equal(burst.length, 250, 'every event of the burst, not only the newest page');
  t.same(new Set(burst.map((e) => e.data.object.id)), new Set(ids), 'each contact created once');
  const times = burst.map((e) => Date.parse(e.created_at));
  t.ok(
    times.every((at, i) => i === 0 || at >= times[i - 1]!),
    'oldest first',
  );

  // Written while the command runs: printed once, though the next polls look back 5 s again.
  const later = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Later', phone: '+1 415 555 1990' })).body.id;
  await tail.waitFor(new RegExp(later), 15_000);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const all = await events(251);
  t.equal(all.length, 251, 'nothing printed twice across overlapping polls');
  t.equal(all.at(-1)?.data.object.id, later);
});

t.test('a poll that fails while the database is away is tried again, and the tail goes on where it was', async (t) => {
  // A database of its own: its feed's table is taken away for a while, which would break the
  // files that share the suite's database meanwhile.
  const db = await createTestDatabase();
  t.teardown(() => db.drop());
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, DATABASE_URL: db.url, CRM_SECRET: randomBytes(32).toString('hex') };
  const boot = await runCrm(['bootstrap', '--org', 'Tail org', '--workspace', 'Tail', '--email', 'first@tail.test', '--password', TEST_PASSWORD, '--json'], env);
  t.equal(boot.code, 0, boot.stderr);
  const workspaceId = (JSON.parse(boot.stdout) as { workspace: { id: string } }).workspace.id;
  const tail = new CrmProcess('events tail (polling, database away)', ['events', 'tail', '--workspace', workspaceId, '--type', 'member.', '--since', '1m'], env);
  t.teardown(() => tail.stop());
  await tail.waitFor(/first@tail\.test/, 30_000);

  // Every poll meanwhile fails inside the worker.
  await db.query('alter table events rename to events_away');
  try {
    await tail.waitFor(/crm: reading the events failed/, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    t.ok(tail.running, 'still following');
  } finally {
    await db.query('alter table events_away rename to events');
  }
  const added = await runCrm(['users', 'add', '--workspace', workspaceId, '--email', 'second@tail.test', '--password', TEST_PASSWORD, '--permissions', 'contacts.read', '--visibility', 'all'], env);
  t.equal(added.code, 0, added.stderr);
  await tail.waitFor(/second@tail\.test/, 15_000);
  t.match(tail.text(), /crm: reading the events again/);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const emails = tail
    .text()
    .split('\n')
    .filter((line) => line.startsWith('{"object":"event"'))
    .map((line) => (JSON.parse(line) as Event).data.object.email);
  t.same(emails, ['first@tail.test', 'second@tail.test'], 'what was printed before is not printed again, what came after is printed once');
  t.equal(await tail.stop(), 0);
});

t.test('a reader that stops early (| head -1): the tail ends at its next line, exit 0, no stack trace', async (t) => {
  const { NATS_URL: _nats, ...withoutNats } = stack.env;
  const child = spawn(...nodeCommand([CRM_BIN, 'events', 'tail', '--workspace', ws.workspace.id, '--since', '1h']), { cwd: ROOT, env: withoutNats, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  // As `head -1` does: the first line read, then the pipe closed.
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.stdout.destroy();
  // The next event is the next write, into a pipe nobody reads.
  const created = await api.post('/v1/contacts', { first_name: 'After', last_name: 'Head', phone: '+1 415 555 1991' });
  t.equal(created.status, 201);
  const code = await Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 30_000))]);
  t.equal(code, 0, 'the tail stopped by itself, as after Ctrl-C');
  t.notMatch(stderr, /EPIPE|\n\s+at /, 'no unhandled error, no stack trace');
});
