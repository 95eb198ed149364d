import t from 'tap';
import type { Event } from '../../shared/contracts/events.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * GET /v1/events over HTTP: keyset pages followed through links.next, the instant filters
 * (both strict, as the contract describes them: "strictly after", "strictly before") and
 * `type` as an exact type or a prefix ending in a dot.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'events:read'], { name: 'feed reader' }));

interface EventList {
  data: Event[];
  meta: { limit: number; has_more: boolean };
  links: { next: string | null };
  applied_range?: unknown;
}
const list = async (query: string) => {
  const res = await api.get<EventList>(`/v1/events?${query}`);
  if (res.status !== 200) throw new Error(`GET /v1/events?${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const idsOf = (events: Event[]) => events.map((e) => e.id);
/** The same instant written with a +02:00 offset instead of Z. */
const plusTwoHours = (iso: string) => new Date(Date.parse(iso) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
const pause = () => new Promise((r) => setTimeout(r, 5));

// Five contacts (one a millisecond or more apart: created_at is stored to the millisecond),
// then an update, an archive and a deal: eight events, all this token may read.
const contacts: string[] = [];
for (let i = 0; i < 5; i++) {
  const res = await api.post<{ id: string }>('/v1/contacts', { first_name: `Feed ${i}`, phone: `+1 415 555 03${String(i).padStart(2, '0')}` });
  if (res.status !== 201) throw new Error(`contact not created: ${JSON.stringify(res.body)}`);
  contacts.push(res.body.id);
  await pause();
}
await api.send('PATCH', `/v1/contacts/${contacts[0]}`, { body: { first_name: 'Feed 0 again' } });
await pause();
await api.send('DELETE', `/v1/contacts/${contacts[1]}`);
await pause();
await api.post('/v1/deals', { name: 'Feed deal' });

const everything = (await list('limit=100')).data;
const created = everything.filter((e) => e.type === 'contact.created').reverse();
const [c0, c1, c2, c3, c4] = created as [Event, Event, Event, Event, Event];

t.test('the workspace holds the eight events written, newest first, each at its own instant', async (t) => {
  t.same(
    everything.map((e) => e.type),
    ['deal.created', 'contact.archived', 'contact.updated', 'contact.created', 'contact.created', 'contact.created', 'contact.created', 'contact.created'],
  );
  t.same(
    created.map((e) => e.data.object.id),
    contacts,
    'the contact.created events, oldest first',
  );
  t.equal(new Set(everything.map((e) => e.created_at)).size, everything.length, 'no two events share a created_at');
});

t.test('type: an exact type, or a prefix ending in a dot', async (t) => {
  t.same(idsOf((await list('limit=100&type=contact.')).data), idsOf(everything.filter((e) => e.type.startsWith('contact.'))), 'contact. is every contact event');
  t.equal((await list('limit=100&type=contact.')).data.length, 7);
  t.same(idsOf((await list('limit=100&type=contact.created')).data), idsOf([...created].reverse()), 'contact.created is that type only');
  t.same((await list('limit=100&type=contact.updated')).data.map((e) => e.type), ['contact.updated']);
  t.same((await list('limit=100&type=deal.')).data.map((e) => e.type), ['deal.created']);
  t.same((await list('limit=100&type=deal.stage_changed')).data, [], 'a type with no events: none');
  for (const type of ['contact', 'contact.create', 'contacts.']) {
    const res = await api.get<{ error: { code: string; param?: string } }>(`/v1/events?type=${encodeURIComponent(type)}`);
    t.equal(res.status, 400, `type=${type} is neither a type nor a prefix ending in a dot`);
  }
});

t.test('created_after and created_before select by instant, each strictly', async (t) => {
  const contactCreated = 'limit=100&type=contact.created';
  t.same(idsOf((await list(`${contactCreated}&created_after=${encodeURIComponent(c1.created_at)}`)).data), idsOf([c4, c3, c2]), 'after: the event at that very instant is out');
  t.same(idsOf((await list(`${contactCreated}&created_before=${encodeURIComponent(c3.created_at)}`)).data), idsOf([c2, c1, c0]), 'before: the event at that very instant is out');
  t.same(
    idsOf((await list(`${contactCreated}&created_after=${encodeURIComponent(c0.created_at)}&created_before=${encodeURIComponent(c4.created_at)}`)).data),
    idsOf([c3, c2, c1]),
    'both: between the two, neither end included',
  );
  const justBefore = new Date(Date.parse(c1.created_at) - 1).toISOString();
  t.same(idsOf((await list(`${contactCreated}&created_after=${encodeURIComponent(justBefore)}`)).data), idsOf([c4, c3, c2, c1]), 'a millisecond earlier takes it in');
  t.same(
    idsOf((await list(`${contactCreated}&created_after=${encodeURIComponent(plusTwoHours(c1.created_at))}`)).data),
    idsOf([c4, c3, c2]),
    'the same instant with an offset selects the same events',
  );
  t.same(
    (await list(`limit=100&created_after=${encodeURIComponent(c4.created_at)}`)).data.map((e) => e.type),
    ['deal.created', 'contact.archived', 'contact.updated'],
    'without a type: every event after the instant',
  );
  for (const [after, before] of [[c2, c1], [c1, c1]] as const) {
    const backwards = await api.get<{ error: { code: string; param?: string; message: string } }>(
      `/v1/events?created_after=${encodeURIComponent(after.created_at)}&created_before=${encodeURIComponent(before.created_at)}`,
    );
    t.equal(backwards.status, 400, 'created_before not later than created_after is refused, not an empty page');
    t.match(backwards.body.error, { code: 'validation_failed', param: 'created_before', message: /must be later than created_after/ });
  }
  const bad = await api.get(`/v1/events?created_after=${encodeURIComponent('2026-02-30')}`);
  t.equal(bad.status, 400, 'not a calendar date');
  t.equal((await api.get(`/v1/events?created_after=2026-01-31&created_within=today`)).status, 400, 'a day and a period together');
});

t.test('a day or created_within is read in the workspace time zone (UTC here), from the start of the day, and echoed', async (t) => {
  const day = c1.created_at.slice(0, 10);
  const page = await list(`limit=100&type=contact.created&created_after=${day}`);
  t.same(idsOf(page.data), idsOf([c4, c3, c2, c1, c0]));
  t.same(page.applied_range, { created_after: `${day}T00:00:00.000Z`, created_before: null, time_zone: 'UTC' });
  const today = await list('limit=100&type=contact.created&created_within=today');
  t.ok(today.data.length >= 5);
  t.equal((await list(`limit=100&type=contact.created&created_before=${day}`)).data.length, 0, 'before the start of that day: none');
  t.equal((await list('limit=100')).applied_range, undefined, 'only a day or a period is echoed');
});

t.test('links.next, followed as given, reads every event exactly once, in order, even as new events arrive', async (t) => {
  const follow = async (first: string, midway?: () => Promise<unknown>) => {
    let read = 0;
    const { pages } = await api.allPages<Event>(`/v1/events?${first}`, async ({ links: { next } }) => {
      if (next !== null) t.ok(next.startsWith('http'), 'an absolute URL');
      if (read++ === 0 && midway) await midway();
    });
    return pages;
  };

  const pages = await follow('limit=2');
  t.same(pages.map((p) => p.data.length), [2, 2, 2, 2], 'four full pages of two');
  t.ok(pages.every((p) => p.meta.limit === 2), 'the limit holds on every page');
  t.same(pages.map((p) => p.meta.has_more), [true, true, true, false]);
  const read = pages.flatMap((p) => p.data);
  t.same(idsOf(read), idsOf(everything), 'every event once, newest first');

  const filtered = await follow('limit=2&type=contact.');
  t.ok(filtered.slice(0, -1).every((p) => p.links.next?.includes('type=contact.')), 'the filter travels in links.next');
  t.same(idsOf(filtered.flatMap((p) => p.data)), idsOf(everything.filter((e) => e.type.startsWith('contact.'))), 'filtered pages: the contact events, once each');

  // A write between two pages is newer than the first page: the rest of the pages neither repeat nor skip.
  const during = await follow('limit=2', () => api.post('/v1/contacts', { first_name: 'Late', phone: '+1 415 555 0399' }));
  t.same(idsOf(during.flatMap((p) => p.data)), idsOf(everything), 'what was there when the first page was read, once each');
  const newest = (await list('limit=1')).data[0];
  t.match(newest, { type: 'contact.created', data: { object: { first_name: 'Late' } } }, 'the new event heads the next reading');
});

t.test('actor_id keeps the changes one actor made (a token, an agent, a console user), so one can be traced among others of its kind', async (t) => {
  // Before, only the kind of actor could be chosen: every token's changes together.
  const other = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'events:read'], { name: 'another token' }));
  const byOther = await other.post<{ id: string }>('/v1/contacts', { first_name: 'Other', phone: '+1 415 555 0398' });
  t.equal(byOther.status, 201);
  const otherId = (await list(`object_id=${byOther.body.id}`)).data[0]?.actor.id;
  const readerId = everything[0]?.actor.id;
  t.ok(otherId && readerId && otherId !== readerId, 'two tokens, two actors');

  const theirs = await list(`actor_id=${otherId}&limit=100`);
  t.same(idsOf(theirs.data), idsOf((await list(`object_id=${byOther.body.id}`)).data), "only the other token's change");
  const mine = await list(`actor_id=${readerId}&limit=100`);
  t.ok(mine.data.length >= everything.length && mine.data.every((e) => e.actor.id === readerId), "and only the reader's own, with the other filters");
  t.same((await list(`actor_id=${otherId}&type=deal.`)).data, [], 'combined with type');

  const paged = await api.allPages<Event>(`/v1/events?actor_id=${readerId}&limit=3`, async () => undefined);
  t.ok(paged.pages.slice(0, -1).every((p) => p.links.next?.includes(`actor_id=${readerId}`)), 'the filter travels in links.next');
  t.same(idsOf(paged.pages.flatMap((p) => p.data)), idsOf(mine.data), 'its pages read each change once');

  const empty = await api.get<{ error: { code: string; param: string } }>('/v1/events?actor_id=');
  t.equal(empty.status, 400);
  t.match(empty.body.error, { code: 'validation_failed', param: 'actor_id' });
});

t.test('a type filter for events the credential reads none of is refused, naming the scope it needs', async (t) => {
  const feedOnly = client(stack.baseUrl, await stack.token(ws.workspace.id, ['events:read']));
  const deals = await feedOnly.get<{ error: { code: string; message: string; required_scope?: string } }>('/v1/events?type=deal.');
  t.equal(deals.status, 403);
  t.match(deals.body.error, { code: 'missing_scope', required_scope: 'deals:read', message: 'Events about deal records need the scope deals:read, which the credential does not hold.' });
  // Before, a note's refusal named contacts:read only, though deals:read reads a deal's notes.
  const notes = await feedOnly.get<{ error: { message: string } }>('/v1/events?type=note.');
  t.equal(notes.status, 403);
  t.equal(notes.body.error.message, 'Events about note records need the scope contacts:read or deals:read, and the credential holds neither.');
});

t.test("an instant's + written into the query string as it is reads as a space: the 400 says so", async (t) => {
  // Before: "must be a date (YYYY-MM-DD…) or an ISO 8601 timestamp", to a poller that had sent one.
  for (const [param, raw] of [
    ['created_after', '2026-11-27T07:00:00+01:00'],
    ['created_before', '2026-11-27T07:00:00.123+0530'],
  ] as const) {
    const res = await api.get<{ error: { code: string; param: string; message: string } }>(`/v1/events?${param}=${raw}`);
    t.equal(res.status, 400, raw);
    t.match(res.body.error, { code: 'validation_failed', param, message: new RegExp(`^${param}: reads as a timestamp whose offset has a space where its \\+ was: in a query string a \\+ means a space, so write it %2B`) }, raw);
  }
  const encoded = await api.get<EventList>(`/v1/events?created_after=${encodeURIComponent(plusTwoHours(c0.created_at))}`);
  t.equal(encoded.status, 200, 'the same instant with its + encoded is read');
  const other = await api.get<{ error: { message: string } }>('/v1/events?created_after=2026-11-27T25:00:00Z');
  t.match(other.body.error.message, /must be a date \(YYYY-MM-DD/, 'another malformed instant keeps its message');
});
