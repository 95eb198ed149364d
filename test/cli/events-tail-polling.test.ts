import pg from 'pg';
import t from 'tap';
import type { Event } from '../../shared/contracts/events.js';
import { client } from '../helpers/http.js';
import { CrmProcess } from '../helpers/process.js';
import { useStack } from '../helpers/shared-stack.js';

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
  const { NATS_URL: _nats, ...withoutNats } = stack.env;
  const first = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Before', phone: '+1 415 555 1991' })).body.id;
  const tail = new CrmProcess('events tail (polling, database away)', ['events', 'tail', '--workspace', ws.workspace.id, '--type', 'contact.', '--since', '1m'], withoutNats);
  t.teardown(() => tail.stop());
  await tail.waitFor(new RegExp(first), 30_000);

  // The feed's table out of reach for a while: every poll meanwhile fails inside the worker.
  const db = new pg.Client({ connectionString: stack.env.DATABASE_URL });
  await db.connect();
  t.teardown(() => db.end());
  await db.query('alter table events rename to events_away');
  try {
    await tail.waitFor(/crm: reading the events failed/, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    t.ok(tail.running, 'still following');
  } finally {
    await db.query('alter table events_away rename to events');
  }
  const after = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'After', phone: '+1 415 555 1992' })).body.id;
  await tail.waitFor(new RegExp(after), 15_000);
  t.match(tail.text(), /crm: reading the events again/);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const ids = tail
    .text()
    .split('\n')
    .filter((line) => line.startsWith('{"object":"event"'))
    .map((line) => (JSON.parse(line) as Event).data.object.id);
  t.equal(ids.filter((id) => id === first).length, 1, 'what was printed before is not printed again');
  t.equal(ids.filter((id) => id === after).length, 1, 'what came after is printed once');
  t.equal(await tail.stop(), 0);
});
