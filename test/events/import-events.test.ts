import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import type { ImportSummary } from '../../cli/commands/import.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { storedEvents as storedEventsOf } from '../helpers/stored-events.js';

/**
 * `crm import contacts` records one contact.created per contact it creates, in the batch's
 * own transaction: the import as actor, the contact as the API shows it, and one request id
 * for every batch of one run. Refused and skipped rows record nothing, and running the same
 * file again records nothing more.
 */
const stack = await useStack(t);
const dir = await mkdtemp(path.join(tmpdir(), 'crm-import-events-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const ws = await stack.bootstrap({ defaultCountry: 'US' });
const workspaceId = ws.workspace.id;
const admin = client(stack.baseUrl, await stack.token(workspaceId, ['contacts:write', 'schema:write', 'events:read']));
const field = await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'score', label: 'Score', type: 'number' });
if (field.status !== 201) throw new Error(`custom field: ${JSON.stringify(field.body)}`);

const phoneOf = (i: number) => `(212) 401-${String(i).padStart(4, '0')}`;
const e164Of = (i: number) => `+12124010${String(i).padStart(3, '0')}`;
// A contact the workspace has before the import: its row is skipped.
const existing = await admin.post<{ id: string }>('/v1/contacts', { first_name: 'Already', phone: phoneOf(7) });
if (existing.status !== 201) throw new Error(`contact: ${JSON.stringify(existing.body)}`);

const ROWS = 200;
/** Rows refused (a bad phone, no name) or not written (the phone of an earlier row, in the same batch and in another one; a contact already there). */
const BAD_PHONE = 8;
const NO_NAME = 18;
const REPEATS = new Map([
  [28, 3],
  [118, 5],
]);
const ALREADY_THERE = 7;
const OWNED = 1;
const nameOf = (i: number) => (i === NO_NAME ? '' : `First${i}`);
function csvOf(indexes: number[]): string {
  const lines = ['first_name,last_name,phone,owner_id,custom.score'];
  for (const i of indexes) {
    const phone = i === BAD_PHONE ? '12345' : phoneOf(REPEATS.get(i) ?? i);
    lines.push([nameOf(i), `Last${i}`, phone, i === OWNED ? ws.user.id : '', String(i)].join(','));
  }
  return `${lines.join('\n')}\n`;
}
const all = Array.from({ length: ROWS }, (_, i) => i);
const file = path.join(dir, 'contacts.csv');
await writeFile(file, csvOf(all));

const importFile = async (csvFile: string) => {
  // Batches of 50: one import in four calls to the contacts worker.
  const res = await stack.crm(['import', 'contacts', csvFile, '--workspace', workspaceId, '--batch-size', '50', '--json']);
  // 3: rows in the errors file (this file has invalid and repeated rows on purpose).
  if (res.code !== 0 && res.code !== 3) throw new Error(`import failed (${res.code}): ${res.stderr}`);
  return JSON.parse(res.stdout) as ImportSummary;
};

const storedEvents = () => storedEventsOf(stack.db, workspaceId);
const importEvents = async () => (await storedEvents()).filter((e) => e.actor.kind === 'import');
const contactIds = async () =>
  (await stack.db.query<{ id: string }>('select id from contacts where workspace_id = $1 and id <> $2 order by id', [workspaceId, existing.body.id])).map(
    (r) => r.id,
  );

interface ListPage {
  data: Record<string, unknown>[];
  meta: { has_more: boolean };
  links: { next: string | null };
}
/** Every contact of the workspace as GET /v1/contacts shows it, following the pages' next links. */
const listedContacts = async () => new Map((await admin.allPages<Record<string, unknown> & { id: string }>('/v1/contacts?limit=100')).items.map((contact) => [contact.id, contact]));

/** What workers/runtime/events/event-actor.ts names a bulk import. */
const IMPORT_ACTOR = { kind: 'import', id: null, name: 'crm import', user: null };

const eventsBefore = await storedEvents();
const first = await importFile(file);
const expectedCreated = ROWS - 2 - REPEATS.size - 1;

t.test('one contact.created per created contact, and none for any other row', async (t) => {
  t.match(first, { rows: ROWS, created: expectedCreated, skipped: 1, duplicates: REPEATS.size, invalid: 2 });
  const known = new Set(eventsBefore.map((e) => e.id));
  const added = (await storedEvents()).filter((e) => !known.has(e.id));
  t.equal(added.length, expectedCreated, 'as many events as contacts created');
  t.same([...new Set(added.map((e) => e.type))], ['contact.created']);
  t.same(added.map((e) => e.object_id).sort(), await contactIds(), 'one for each new contact, none twice');

  const names = new Set(added.map((e) => e.data.first_name));
  for (const i of [BAD_PHONE, ...REPEATS.keys(), ALREADY_THERE]) t.notOk(names.has(nameOf(i)), `no event for row ${i} (${nameOf(i)})`);
  t.notOk(
    added.some((e) => e.data.last_name === `Last${NO_NAME}`),
    'no event for the row without a name',
  );
  const already = (await storedEvents()).filter((e) => e.object_id === existing.body.id);
  t.same(
    already.map((e) => [e.type, e.actor.kind]),
    [['contact.created', 'api_token']],
    'the contact already there keeps its one event, from the API',
  );
});

t.test('the import is the actor, the contact as the API shows it is the object', async (t) => {
  const events = await importEvents();
  t.equal(events.length, expectedCreated);
  t.same(
    events.filter((e) => !isDeepStrictEqual(e.actor, IMPORT_ACTOR)).map((e) => e.actor),
    [],
    'every actor is kind import, no id, named crm import',
  );
  t.ok(
    events.every((e) => e.previous_attributes === null),
    'no previous attributes',
  );
  const listed = await listedContacts();
  const mismatched = events.filter((e) => !isDeepStrictEqual(e.data, listed.get(e.object_id)));
  t.same(mismatched.map((e) => e.object_id), [], 'every event object is the contact as GET /v1/contacts shows it');
  const owned = events.find((e) => e.data.first_name === nameOf(OWNED));
  t.match(
    owned,
    { owner_id: ws.user.id, data: { owner_id: ws.user.id, phone: e164Of(OWNED), custom_fields: { score: OWNED } } },
    'an owned contact: its owner on the event',
  );
  t.ok(
    events.filter((e) => e !== owned).every((e) => e.owner_id === null),
    'the others have none',
  );

  const [one] = events;
  const overRest = await admin.get<Record<string, unknown>>(`/v1/events/${one?.id}`);
  t.match(overRest.body, { type: 'contact.created', actor: IMPORT_ACTOR, request_id: one?.request_id, data: { object: one?.data } });
  const byKind = (await admin.get<ListPage>('/v1/events?actor_kind=import&type=contact.created&limit=100')).body;
  t.equal(byKind.data.length, 100, 'the feed filters by actor kind import');
  t.ok(byKind.meta.has_more);
  t.ok(
    byKind.data.every((e) => isDeepStrictEqual(e.actor, IMPORT_ACTOR)),
    'with the import as actor',
  );
});

t.test('one request id for every batch of one import', async (t) => {
  const events = await importEvents();
  const ids = [...new Set(events.map((e) => e.request_id))];
  t.equal(ids.length, 1, `the ${expectedCreated} events of four batches share one request id`);
  t.match(ids[0], /^req_\w+$/);
  t.notOk(
    eventsBefore.some((e) => e.request_id === ids[0]),
    'no other request made an event with it',
  );
});

t.test('running the same file again records nothing more', async (t) => {
  const before = await storedEvents();
  const again = await importFile(file);
  t.match(again, { rows: ROWS, created: 0, skipped: expectedCreated + 1, duplicates: REPEATS.size, invalid: 2 });
  t.same(await storedEvents(), before, 'no event added');
});

t.test('a second import records only its new contacts, under a request id of its own', async (t) => {
  const before = await storedEvents();
  const firstRequest = (await importEvents())[0]?.request_id;
  const more = path.join(dir, 'more.csv');
  // Ten rows of the first file, then ten new ones.
  await writeFile(more, csvOf([...all.slice(40, 50), ...Array.from({ length: 10 }, (_, i) => ROWS + i)]));
  const summary = await importFile(more);
  t.match(summary, { rows: 20, created: 10, skipped: 10, duplicates: 0, invalid: 0 });
  const known = new Set(before.map((e) => e.id));
  const added = (await storedEvents()).filter((e) => !known.has(e.id));
  t.same(
    added.map((e) => e.data.first_name).sort(),
    Array.from({ length: 10 }, (_, i) => nameOf(ROWS + i)).sort(),
    'one event for each new row only',
  );
  t.ok(
    added.every((e) => e.type === 'contact.created' && e.actor.kind === 'import'),
    'contact.created by the import',
  );
  const ids = [...new Set(added.map((e) => e.request_id))];
  t.equal(ids.length, 1);
  t.not(ids[0], firstRequest, 'another run, another request id');
});
