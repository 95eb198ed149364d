import t from 'tap';
import type { Operation, OperationInput } from '../../shared/bus/operation.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { listEvents } from '../../shared/contracts/events.js';
import { createNote, deleteNote, getNote, listNotes, updateNote, type Note } from '../../shared/contracts/notes.js';
import { newId } from '../../shared/ids.js';
import type { ErrorBody, ListPage } from '../helpers/api-types.js';
import { busAs } from '../helpers/bus-as.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Notes over REST: the whole life of a note, the limits of its text, scopes and `owned`
 * visibility that follow its contact or deal, idempotent creation, and its events.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const W = ws.workspace.id;
const admin = ws.user.id;
const rep = await stack.addMember(W, 'rep@notes.test', ['contacts.write', 'deals.write'], 'owned');

const writerName = 'notes writer';
const api = client(stack.baseUrl, await stack.token(W, ['contacts:write', 'deals:write', 'events:read'], { name: writerName }));
const mkContact = async (first_name: string, phone: string, owner_id: string | null = null) =>
  (await api.post<{ id: string }>('/v1/contacts', { first_name, phone, owner_id })).body.id;
const mkDeal = async (name: string, owner_id: string | null = null) => (await api.post<{ id: string }>('/v1/deals', { name, owner_id })).body.id;

const contact = await mkContact('Ada', '+1 415 555 0300', admin);
const deal = await mkDeal('Big deal', admin);

type EventBody = { id: string; type: string; actor: { kind: string; id: string | null; name: string }; data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> | null } };
const eventsOf = async (objectId: string, as = api) => (await as.get<ListPage<EventBody>>(`/v1/events?object_id=${objectId}`)).body.data;
const storedNotes = async (where = 'true', params: unknown[] = []) =>
  Number((await stack.db.query<{ n: string }>(`select count(*) as n from notes where workspace_id = $1 and ${where}`, [W, ...params]))[0]?.n);

t.test('a note on a contact: create, list, get, change and delete, each with its event', async (t) => {
  const created = await api.post<Note>('/v1/notes', { contact_id: contact, body: '  **Called** Ada.\n\n- wants a demo\n- budget in Q3  ' });
  t.equal(created.status, 201);
  const note = created.body;
  t.match(note, { object: 'note', contact_id: contact, deal_id: null, body: '**Called** Ada.\n\n- wants a demo\n- budget in Q3' }, 'stored as given after trimming, line breaks kept');
  t.match(note.id, /^note_/);
  t.match(note.author, { kind: 'api_token', name: writerName, user: null });
  t.equal(created.headers.get('location'), `${stack.baseUrl}/v1/notes/${note.id}`);

  const listed = await api.get<ListPage<Note>>(`/v1/notes?contact_id=${contact}`);
  t.equal(listed.status, 200);
  t.same(listed.body.data, [note]);
  t.same((await api.get<Note>(`/v1/notes/${note.id}`)).body, note);

  const changed = await api.send<Note>('PATCH', `/v1/notes/${note.id}`, { body: { body: 'Called Ada: demo booked.' } });
  t.equal(changed.status, 200);
  t.equal(changed.body.body, 'Called Ada: demo booked.');
  t.equal(changed.body.created_at, note.created_at);
  t.same(changed.body.author, note.author, 'the author stays the writer');
  t.equal((await api.send('PATCH', `/v1/notes/${note.id}`, { body: { contact_id: contact, body: 'x' } })).status, 400, 'a note cannot move');

  const deleted = await api.send('DELETE', `/v1/notes/${note.id}`);
  t.same(deleted.body, { object: 'note', id: note.id, deleted: true });
  t.equal((await api.get<ErrorBody>(`/v1/notes/${note.id}`)).status, 404);
  t.equal((await api.send('DELETE', `/v1/notes/${note.id}`)).status, 404);

  const events = await eventsOf(note.id);
  t.same(events.map((e) => e.type), ['note.deleted', 'note.updated', 'note.created']);
  for (const e of events) t.match(e.actor, { kind: 'api_token', name: writerName });
  t.same(events[1]?.data.previous_attributes, { body: note.body }, 'the old text');
  t.equal(events[2]?.data.object.body, note.body);
  t.equal(events[0]?.data.object.body, 'Called Ada: demo booked.', 'a deletion keeps the note as it was');
});

t.test('a deal note, and a deleted deal takes its notes with it', async (t) => {
  const doomed = await mkDeal('Doomed');
  const note = (await api.post<Note>('/v1/notes', { deal_id: doomed, body: 'Lost to a competitor.' })).body;
  t.match(note, { deal_id: doomed, contact_id: null });
  t.same((await api.get<ListPage<Note>>(`/v1/notes?deal_id=${doomed}`)).body.data.map((n) => n.id), [note.id]);
  t.equal((await api.send('DELETE', `/v1/deals/${doomed}`)).status, 200);
  t.equal(await storedNotes('id = $2', [note.id]), 0);
  t.equal((await api.get(`/v1/notes/${note.id}`)).status, 404);
});

t.test('bad input: a clear 400 or 404 and nothing stored', async (t) => {
  const before = await storedNotes();
  const refused: [unknown, number, string, string?][] = [
    [{ body: 'No parent' }, 400, 'contact_id', 'give contact_id or deal_id'],
    [{ contact_id: contact, deal_id: deal, body: 'Both' }, 400, 'deal_id', 'not both'],
    [{ contact_id: contact, body: '   ' }, 400, 'body'],
    [{ contact_id: contact, body: ' \u200b\u2060\ufeff\n' }, 400, 'body', 'visible text'],
    // Characters drawn as nothing though not format characters: the Hangul fillers, the combining grapheme joiner, a variation selector.
    [{ contact_id: contact, body: '\u3164\u115f\u1160\uffa0 \u034f\ufe0f' }, 400, 'body', 'visible text'],
    [{ contact_id: contact, body: 'x'.repeat(10_001) }, 400, 'body', 'at most 10000 characters'],
    [{ contact_id: contact, body: 'bell \u0007' }, 400, 'body', 'control characters'],
    [{ contact_id: contact, body: 'x', author: 'me' }, 400, 'author'],
    [{ contact_id: 'con_nope', body: 'x' }, 404, 'contact_id', 'con_nope'],
    [{ deal_id: 'deal_nope', body: 'x' }, 404, 'deal_id', 'deal_nope'],
  ];
  for (const [body, status, param, message] of refused) {
    const res = await api.post<ErrorBody>('/v1/notes', body);
    t.equal(res.status, status, JSON.stringify(body).slice(0, 80));
    t.equal(res.body.error.param, param);
    if (message) t.match(res.body.error.message, message);
  }
  // Another workspace's contact does not exist here.
  const other = await stack.bootstrap({ defaultCountry: 'US' });
  const theirs = client(stack.baseUrl, await stack.token(other.workspace.id, ['contacts:write']));
  const theirContact = (await theirs.post<{ id: string }>('/v1/contacts', { first_name: 'Other', phone: '+1 415 555 0399' })).body.id;
  t.equal((await api.post('/v1/notes', { contact_id: theirContact, body: 'x' })).status, 404);
  const theirNote = (await theirs.post<Note>('/v1/notes', { contact_id: theirContact, body: 'Theirs' })).body.id;
  t.equal((await api.get(`/v1/notes/${theirNote}`)).status, 404);
  t.equal((await api.send('PATCH', `/v1/notes/${theirNote}`, { body: { body: 'Mine now' } })).status, 404);
  t.equal(await storedNotes(), before, 'nothing was stored');

  const longest = await api.post<Note>('/v1/notes', { contact_id: contact, body: 'y'.repeat(10_000) });
  t.equal(longest.status, 201, '10,000 characters are accepted');
  const note = longest.body;
  const tooLong = await api.send<ErrorBody>('PATCH', `/v1/notes/${note.id}`, { body: { body: 'z'.repeat(10_001) } });
  t.equal(tooLong.status, 400);
  t.equal((await api.get<Note>(`/v1/notes/${note.id}`)).body.body, 'y'.repeat(10_000), 'a refused change leaves the note as it was');
  t.equal((await api.get<ErrorBody>('/v1/notes?contact_id=con_a&deal_id=deal_b')).status, 400, 'one parent filter at most');
  // An empty id is refused, not read as no filter (every note) nor looked up as a record.
  for (const param of ['contact_id', 'deal_id']) {
    const emptyFilter = await api.get<ErrorBody>(`/v1/notes?${param}=`);
    t.equal(emptyFilter.status, 400, `an empty ${param} filter is a 400`);
    t.match(emptyFilter.body.error, { param, message: `${param} is empty: give a value, or leave the parameter out.` });
    const emptyParent = await api.post<ErrorBody>('/v1/notes', { [param]: '', body: 'On nothing' });
    t.equal(emptyParent.status, 400, `an empty ${param} on create is a 400`);
    t.match(emptyParent.body.error, { param });
  }

  // Characters, as the database and JSON Schema count them: an emoji is one, not two UTF-16 units.
  const emoji = await api.post<Note>('/v1/notes', { contact_id: contact, body: '😀'.repeat(10_000) });
  t.equal(emoji.status, 201, '10,000 emoji are 10,000 characters');
  t.equal([...emoji.body.body].length, 10_000);
  const tooManyEmoji = await api.post<ErrorBody>('/v1/notes', { contact_id: contact, body: '😀'.repeat(10_001) });
  t.equal(tooManyEmoji.status, 400);
  t.match(tooManyEmoji.body.error, { param: 'body', message: /at most 10000 characters/ });

  // A CRLF or lone CR line break is one line break, stored as LF, as the console's form stores it.
  const lines = await api.post<Note>('/v1/notes', { contact_id: contact, body: 'ab\r\n'.repeat(2_500) + 'ab\rc' });
  t.equal(lines.status, 201, '2,501 CRLF-separated lines of 7,504 characters are within the limit');
  t.equal(lines.body.body, 'ab\n'.repeat(2_500) + 'ab\nc', 'stored with LF line breaks');
  const sameLines = await api.send<Note>('PATCH', `/v1/notes/${lines.body.id}`, { body: { body: 'ab\n'.repeat(2_500) + 'ab\r\nc' } });
  t.equal(sameLines.body.updated_at, lines.body.updated_at, 'the same text with other line breaks changes nothing');

  // The console's form too: one emoji past the limit is refused, not cut to fit.
  const forms = await signInToConsole(stack.baseUrl, W, ws.user.email, TEST_PASSWORD);
  const beforeForm = await storedNotes();
  const overLong = await forms.post(`/contacts/${contact}/notes`, { body: '😀'.repeat(10_001) });
  t.equal(overLong.status, 400, 'the form refuses 10,001 emoji');
  t.match(await overLong.text(), /at most 10000 characters/);
  t.equal(await storedNotes(), beforeForm, 'and stores nothing');
});

t.test('scopes follow the record: contacts:* for a contact note, deals:* for a deal note', async (t) => {
  const contactNote = (await api.post<Note>('/v1/notes', { contact_id: contact, body: 'On the contact' })).body;
  const dealNote = (await api.post<Note>('/v1/notes', { deal_id: deal, body: 'On the deal' })).body;
  const contactsOnly = client(stack.baseUrl, await stack.token(W, ['contacts:write', 'events:read']));
  const dealsReader = client(stack.baseUrl, await stack.token(W, ['deals:read']));
  const schemaOnly = client(stack.baseUrl, await stack.token(W, ['schema:read']));

  const missing = async (res: Promise<{ status: number; body: unknown }>, scope: string, what: string) => {
    const r = await res;
    t.equal(r.status, 403, what);
    t.equal((r.body as ErrorBody).error.required_scope, scope, `${what}: names ${scope}`);
  };
  await missing(contactsOnly.post('/v1/notes', { deal_id: deal, body: 'x' }), 'deals:write', 'a deal note needs deals:write');
  // A note of a kind of record the credential cannot read is answered as no note: a 403 naming
  // the kind would tell it that the id is a note, and on which kind of record.
  const unknown = async (res: Promise<{ status: number; body: unknown }>, what: string) => {
    const r = await res;
    t.equal(r.status, 404, what);
    const missingNote = await contactsOnly.get<ErrorBody>(`/v1/notes/${newId('note')}`);
    t.equal(missingNote.status, 404);
    const shape = (body: unknown) => ({ ...(body as ErrorBody).error, message: (body as ErrorBody).error.message.replace(/note_\w+/, 'note_X'), request_id: undefined });
    t.same(shape(r.body), shape(missingNote.body), `${what}: as for a note that does not exist`);
  };
  await unknown(contactsOnly.get(`/v1/notes/${dealNote.id}`), 'a deal note without deals:read is not found');
  await unknown(contactsOnly.send('DELETE', `/v1/notes/${dealNote.id}`), 'nor deleted');
  await unknown(contactsOnly.send('PATCH', `/v1/notes/${dealNote.id}`, { body: { body: 'x' } }), 'nor changed');
  await missing(contactsOnly.get(`/v1/notes?deal_id=${deal}`), 'deals:read', "a deal's notes need deals:read");
  await missing(dealsReader.post('/v1/notes', { deal_id: deal, body: 'x' }), 'deals:write', 'reading is not writing');
  await missing(dealsReader.post('/v1/notes', { contact_id: contact, body: 'x' }), 'deals:write', 'the gateway names the family the token has');
  await unknown(dealsReader.get(`/v1/notes/${contactNote.id}`), 'a contact note without contacts:read is not found');
  await missing(dealsReader.send('PATCH', `/v1/notes/${dealNote.id}`, { body: { body: 'x' } }), 'deals:write', 'changing needs deals:write');
  await missing(schemaOnly.get('/v1/notes'), 'contacts:read', 'no notes at all without either');

  t.equal((await contactsOnly.get(`/v1/notes/${contactNote.id}`)).status, 200);
  t.equal((await dealsReader.get(`/v1/notes/${dealNote.id}`)).status, 200);
  const mine = (await contactsOnly.get<ListPage<Note>>('/v1/notes?limit=100')).body.data;
  t.ok(mine.length > 0 && mine.every((n) => n.contact_id !== null), 'without a filter: only the notes of records the token reads');
  const theirs = (await dealsReader.get<ListPage<Note>>('/v1/notes?limit=100')).body.data;
  t.ok(theirs.some((n) => n.id === dealNote.id) && theirs.every((n) => n.deal_id !== null));
  t.notOk((await eventsOf(dealNote.id, contactsOnly)).length, "a deal note's events need deals:read too");
  t.equal((await eventsOf(contactNote.id, contactsOnly)).length, 1);
  t.equal(await storedNotes('body = $2', ['x']), 0, 'no refused write stored a note');
});

t.test('owned visibility applies through the record', async (t) => {
  const bus = await busAs(t, stack, 'gateway');
  const repCtx: CallContext = { workspace_id: W, principal: { type: 'user', id: rep, scopes: ['contacts:write', 'deals:write', 'events:read'] }, visibility: 'owned' };
  const call = <Op extends Operation>(op: Op, input: OperationInput<Op>) => bus.call(op, input, { context: repCtx, requestId: 'req_notes_owned' }).then((r) => r.result);

  const repContact = await mkContact('Rita', '+1 415 555 0310', rep);
  const repDeal = await mkDeal('Rita deal', rep);
  const adminNote = (await api.post<Note>('/v1/notes', { contact_id: contact, body: "Admin's own" })).body;
  const adminDealNote = (await api.post<Note>('/v1/notes', { deal_id: deal, body: "Admin's deal" })).body;

  const repNote = await call(createNote, { contact_id: repContact, body: 'Met Rita' });
  t.match(repNote.author, { kind: 'console_user', id: rep, name: 'rep@notes.test', user: { id: rep, email: 'rep@notes.test' } }, 'a signed-in user is the author');
  const repDealNote = await call(createNote, { deal_id: repDeal, body: 'Rita deal note' });

  const all = await call(listNotes, { limit: 100 });
  t.same(all.data.map((n) => n.id).sort(), [repNote.id, repDealNote.id].sort(), 'only notes on records they own');
  t.same((await call(listNotes, { limit: 100, contact_id: repContact })).data.map((n) => n.id), [repNote.id]);
  for (const id of [adminNote.id, adminDealNote.id]) {
    await t.rejects(call(getNote, { id }), { code: 'not_found' }, 'a note on a record they cannot see is a 404');
    await t.rejects(call(updateNote, { id, body: 'Taken' }), { code: 'not_found' });
    await t.rejects(call(deleteNote, { id }), { code: 'not_found' });
  }
  await t.rejects(call(listNotes, { limit: 10, contact_id: contact }), { code: 'not_found', details: { param: 'contact_id' } });
  await t.rejects(call(createNote, { contact_id: contact, body: 'x' }), { code: 'not_found', details: { param: 'contact_id' } });
  await t.rejects(call(createNote, { deal_id: deal, body: 'x' }), { code: 'not_found', details: { param: 'deal_id' } });

  const feed = await call(listEvents, { limit: 100, type: 'note.' });
  t.ok(feed.data.some((e) => e.data.object.id === repNote.id), 'their note events');
  t.notOk(feed.data.some((e) => e.data.object.id === adminNote.id || e.data.object.id === adminDealNote.id), "not those on others' records");
  t.equal((await api.get<Note>(`/v1/notes/${adminNote.id}`)).body.body, "Admin's own", 'nothing changed');
});

t.test('Idempotency-Key replays the first note', async (t) => {
  const key = `note-${Date.now()}`;
  const first = await api.post<Note>('/v1/notes', { contact_id: contact, body: 'Exactly once' }, { 'idempotency-key': key });
  const again = await api.post<Note>('/v1/notes', { contact_id: contact, body: 'Exactly once' }, { 'idempotency-key': key });
  t.equal(first.status, 201);
  t.equal(again.status, 201);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.same(again.body, first.body);
  const reused = await api.post<ErrorBody>('/v1/notes', { contact_id: contact, body: 'Something else' }, { 'idempotency-key': key });
  t.equal(reused.status, 409);
  t.equal(reused.body.error.code, 'idempotency_key_reused');
  t.equal(await storedNotes('body = $2', ['Exactly once']), 1);
  t.equal(await storedNotes('body = $2', ['Something else']), 0);
  t.equal((await eventsOf(first.body.id)).length, 1, 'one event');
  t.equal((await api.send('GET', `/v1/notes/${first.body.id}`, { headers: { 'idempotency-key': 'k' } })).status, 400, 'not on reads');
});

t.test('keyset pages, oldest first or newest first', async (t) => {
  const person = await mkContact('Paged', '+1 415 555 0320');
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await api.post<Note>('/v1/notes', { contact_id: person, body: `Note ${i}` })).body.id);
  const read = async (order: 'asc' | 'desc') => {
    const seen: string[] = [];
    let next: string | null = `/v1/notes?contact_id=${person}&limit=2&order=${order}`;
    while (next) {
      const page: ListPage<Note> = (await api.get<ListPage<Note>>(next)).body;
      t.ok(page.data.length <= 2);
      seen.push(...page.data.map((n) => n.id));
      next = page.links.next;
    }
    return seen;
  };
  t.same(await read('asc'), ids);
  t.same(await read('desc'), [...ids].reverse());
  const badOrder = await api.get<ErrorBody>(`/v1/notes?contact_id=${person}&order=newest_first`);
  t.equal(badOrder.status, 400);
  t.match(badOrder.body.error, { param: 'order', message: 'order: must be asc or desc' }, 'the values it takes, as other lists say theirs');
  const page = (await api.get<ListPage<Note>>(`/v1/notes?contact_id=${person}&limit=2`)).body;
  const cursor = new URL(page.links.next ?? '').searchParams.get('cursor') ?? '';
  const elsewhere = await api.get<ErrorBody>(`/v1/notes?contact_id=${contact}&limit=2&cursor=${encodeURIComponent(cursor)}`);
  t.equal(elsewhere.status, 400);
  t.equal(elsewhere.body.error.code, 'invalid_cursor');
});
