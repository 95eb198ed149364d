import t, { type Test } from 'tap';
import { newId } from '../../shared/ids.js';
import type { ApiResponse } from '../helpers/http.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Contact, Deal, ErrorBody, ListPage, Pipeline } from '../helpers/api-types.js';

/**
 * Optimistic concurrency over REST: contacts and deals carry an ETag, and a PATCH with
 * If-Match applies only to the version it names, so two clients that read a record and
 * change it cannot silently overwrite each other.
 */

const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'schema:write', 'events:read']));

await api.post('/v1/custom-fields', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'text' });
await api.post('/v1/custom-fields', { object_type: 'deal', key: 'source', label: 'Source', type: 'text' });
const pipelines = (await api.get<ListPage<Pipeline>>('/v1/pipelines')).body.data;
const defaultPipeline = pipelines.find((p) => p.is_default)!;
const other = (await api.post<Pipeline>('/v1/pipelines', { name: 'Partners', stages: ['Intro', 'Signed'] })).body;

let phones = 0;
const newContact = async () => (await api.post<Contact>('/v1/contacts', { first_name: 'Ada', phone: `+1 415 555 ${String(1000 + phones++)}` })).body;
const newDeal = async () => (await api.post<Deal>('/v1/deals', { name: 'Guarded deal', amount: 100, currency: 'USD' })).body;
const eventTypes = async (id: string) => (await api.get<ListPage<{ type: string }>>(`/v1/events?object_id=${id}`)).body.data.map((e) => e.type);
const etagOf = (res: ApiResponse<unknown>) => res.headers.get('etag');

const kinds = [
  { kind: 'contact', path: '/v1/contacts', create: newContact, change: { first_name: 'Grace' }, other: { last_name: 'Hopper' }, updated: 'contact.updated' },
  { kind: 'deal', path: '/v1/deals', create: newDeal, change: { name: 'Renamed' }, other: { amount: 500 }, updated: 'deal.updated' },
] as const;

for (const k of kinds) {
  t.test(`${k.kind}: GET and PATCH send the record's version as a strong ETag`, async (t) => {
    const record = await k.create();
    const read = await api.get(`${k.path}/${record.id}`);
    t.equal(etagOf(read), `"${record.updated_at}"`, 'GET: the version the body shows');
    const patched = await api.send<{ updated_at: string }>('PATCH', `${k.path}/${record.id}`, { body: k.change });
    t.equal(etagOf(patched), `"${patched.body.updated_at}"`, 'PATCH: the new version');
    t.not(etagOf(patched), etagOf(read), 'a write gives a new tag');
    t.equal(etagOf(await api.get(`${k.path}/${record.id}`)), etagOf(patched), 'read again: the same tag');
  });

  t.test(`${k.kind}: two PATCHes with the same ETag: the second is a 412, changes nothing and records no event`, async (t) => {
    const record = await k.create();
    const tag = etagOf(await api.get(`${k.path}/${record.id}`))!;
    const first = await api.send('PATCH', `${k.path}/${record.id}`, { body: k.change, headers: { 'If-Match': tag } });
    t.equal(first.status, 200);
    const after = await api.get(`${k.path}/${record.id}`);
    // Before: the second write went through, silently overwriting the first.
    const second = await api.send<ErrorBody>('PATCH', `${k.path}/${record.id}`, { body: k.other, headers: { 'If-Match': tag } });
    t.equal(second.status, 412);
    t.equal(second.body.error.code, 'precondition_failed');
    t.match(second.body.error.message, etagOf(first)!, 'the message names the current tag');
    t.same((await api.get(`${k.path}/${record.id}`)).body, after.body, 'record unchanged');
    t.same((await eventTypes(record.id)).filter((type) => type === k.updated), [k.updated], 'one update event');
    t.equal((await api.send('PATCH', `${k.path}/${record.id}`, { body: k.other, headers: { 'If-Match': etagOf(first)! } })).status, 200, 'the current tag is let through');
  });

  t.test(`${k.kind}: of two concurrent PATCHes with the same ETag, exactly one succeeds`, async (t) => {
    const record = await k.create();
    const tag = `"${record.updated_at}"`;
    const results = await Promise.all([k.change, k.other].map((body) => api.send('PATCH', `${k.path}/${record.id}`, { body, headers: { 'If-Match': tag } })));
    t.same(results.map((r) => r.status).sort(), [200, 412]);
    t.equal((await eventTypes(record.id)).filter((type) => type === k.updated).length, 1, 'one update event');
  });

  t.test(`${k.kind}: If-Match: * matches any existing record; a list matches any of its strong tags; a weak tag never`, async (t) => {
    const record = await k.create();
    const star = await api.send('PATCH', `${k.path}/${record.id}`, { body: k.change, headers: { 'If-Match': '*' } });
    t.equal(star.status, 200);
    t.equal((await api.send('PATCH', `${k.path}/${newId(k.kind)}`, { body: k.change, headers: { 'If-Match': '*' } })).status, 404, 'no record: 404');
    const current = etagOf(star)!;
    const weak = await api.send<ErrorBody>('PATCH', `${k.path}/${record.id}`, { body: k.other, headers: { 'If-Match': `W/${current}` } });
    t.equal(weak.status, 412, 'If-Match compares strongly');
    t.match(weak.body.error.message, /weak tag .* never matches.*Send the ETag as given/, 'the refusal says the tag was weak, not that the record changed');
    t.notMatch(weak.body.error.message, /someone changed it/, 'nobody changed it');
    const listed = await api.send('PATCH', `${k.path}/${record.id}`, { body: k.other, headers: { 'If-Match': `"2001-01-01T00:00:00.000Z", ${current}` } });
    t.equal(listed.status, 200, 'one of the tags listed');
    t.equal((await api.get(`${k.path}/${record.id}`, { 'If-Match': etagOf(listed)! })).status, 200, 'GET with the current tag');
    t.equal((await api.get(`${k.path}/${record.id}`, { 'If-Match': current })).status, 412, 'GET with a stale tag');
  });

  t.test(`${k.kind}: a malformed If-Match is a 400 and changes nothing`, async (t) => {
    const record = await k.create();
    for (const value of ['abc', '"unterminated', '"a" "b"', '*, "a"', '']) {
      const res = await api.send<ErrorBody>('PATCH', `${k.path}/${record.id}`, { body: k.change, headers: { 'If-Match': value } });
      t.equal(res.status, 400, JSON.stringify(value));
      t.equal(res.body.error.code, 'validation_failed');
      t.equal(res.body.error.param, 'If-Match');
    }
    t.same((await api.get(`${k.path}/${record.id}`)).body, record, 'unchanged');
  });

  t.test(`${k.kind}: an Idempotency-Key replays the first answer, whatever has changed since`, async (t) => {
    const record = await k.create();
    const tag = `"${record.updated_at}"`;
    const key = `etag-${newId('request')}`;
    const first = await api.send('PATCH', `${k.path}/${record.id}`, { body: k.change, headers: { 'If-Match': tag, 'Idempotency-Key': key } });
    t.equal(first.status, 200);
    const replay = await api.send('PATCH', `${k.path}/${record.id}`, { body: k.change, headers: { 'If-Match': tag, 'Idempotency-Key': key } });
    t.equal(replay.status, 200, 'the tag is stale now, and the replay still answers the first result');
    t.equal(replay.headers.get('idempotent-replayed'), 'true');
    t.same(replay.body, first.body);
    t.equal(etagOf(replay), etagOf(first));
    const otherTag = await api.send<ErrorBody>('PATCH', `${k.path}/${record.id}`, { body: k.change, headers: { 'If-Match': etagOf(first)!, 'Idempotency-Key': key } });
    t.equal(otherTag.body.error.code, 'idempotency_key_reused', 'the key with another If-Match is another request');
    t.equal((await eventTypes(record.id)).filter((type) => type === k.updated).length, 1, 'one update event');
  });

  t.test(`${k.kind}: without If-Match, a write goes through as before`, async (t) => {
    const record = await k.create();
    t.equal((await api.send('PATCH', `${k.path}/${record.id}`, { body: k.change })).status, 200);
    t.equal((await api.send('PATCH', `${k.path}/${record.id}`, { body: k.other })).status, 200);
  });
}

t.test('DELETE with If-Match archives the contact or deletes the deal only at the version it names', async (t) => {
  for (const k of kinds) {
    const record = await k.create();
    const tag = etagOf(await api.get(`${k.path}/${record.id}`))!;
    const changed = await api.send('PATCH', `${k.path}/${record.id}`, { body: k.change });
    const before = (await api.get(`${k.path}/${record.id}`)).body;
    // Before: any tag on DELETE was a 412, the current one too, so a client could not delete only what it had read.
    const stale = await api.send<ErrorBody>('DELETE', `${k.path}/${record.id}`, { headers: { 'If-Match': tag } });
    t.equal(stale.status, 412, `${k.kind}: a stale tag`);
    t.equal(stale.body.error.code, 'precondition_failed');
    t.match(stale.body.error.message, etagOf(changed)!, `${k.kind}: the message names the current tag`);
    t.same((await api.get(`${k.path}/${record.id}`)).body, before, `${k.kind}: neither archived nor deleted`);
    const removed = await api.send<{ updated_at?: string }>('DELETE', `${k.path}/${record.id}`, { headers: { 'If-Match': etagOf(changed)! } });
    t.equal(removed.status, 200, `${k.kind}: the current tag`);
    if (k.kind === 'contact') {
      t.equal(etagOf(removed), `"${removed.body.updated_at}"`, 'the archived contact answers with its new tag');
      const again = await api.send('DELETE', `${k.path}/${record.id}`, { headers: { 'If-Match': etagOf(changed)! } });
      t.equal(again.status, 412, 'archived already, at another version than the one named');
      t.equal((await api.send('DELETE', `${k.path}/${record.id}`, { headers: { 'If-Match': etagOf(removed)! } })).status, 200, 'archiving again at its version changes nothing');
      t.same((await eventTypes(record.id)).filter((type) => type === 'contact.archived'), ['contact.archived'], 'one archive event');
    } else {
      t.equal(etagOf(removed), null, 'a deleted deal has no tag');
      t.equal((await api.get(`${k.path}/${record.id}`)).status, 404, 'deleted');
    }
    t.equal((await api.send('DELETE', `${k.path}/${newId(k.kind)}`, { headers: { 'If-Match': '*' } })).status, 404, `${k.kind}: If-Match: * on no record`);
  }
});

t.test('of a DELETE and a PATCH with the same ETag, exactly one succeeds', async (t) => {
  for (const k of kinds) {
    const record = await k.create();
    const tag = `"${record.updated_at}"`;
    const [patch, del] = await Promise.all([
      api.send('PATCH', `${k.path}/${record.id}`, { body: k.change, headers: { 'If-Match': tag } }),
      api.send('DELETE', `${k.path}/${record.id}`, { headers: { 'If-Match': tag } }),
    ]);
    // The PATCH that comes second finds a deleted deal gone (404), an archived contact at another version (412).
    const expected = patch.status === 200 ? [200, 412] : [k.kind === 'deal' ? 404 : 412, 200];
    t.same([patch.status, del.status], expected, k.kind);
  }
});

/** Each write in turn, with If-Match of the version before it: each must get a new tag, the one before then refused. */
async function eachWriteMovesTheTag(t: Test, path: string, id: string, probe: Record<string, unknown>, writes: [string, string, Record<string, unknown> | undefined][]) {
  let tag = etagOf(await api.get(`${path}/${id}`))!;
  const seen = new Set([tag]);
  for (const [what, method, body] of writes) {
    const res = await api.send(method, `${path}/${id}`, { body, headers: method === 'PATCH' ? { 'If-Match': tag } : {} });
    t.equal(res.status, 200, what);
    const next = etagOf(await api.get(`${path}/${id}`))!;
    t.notOk(seen.has(next), `${what}: a new tag`);
    if (method === 'PATCH') t.equal(etagOf(res), next, `${what}: the PATCH answered it`);
    const stale = await api.send('PATCH', `${path}/${id}`, { body: probe, headers: { 'If-Match': tag } });
    t.equal(stale.status, 412, `${what}: the tag before is refused`);
    seen.add(next);
    tag = next;
  }
}

t.test('contact: the ETag changes after each kind of write, however quickly they follow', async (t) => {
  const contact = await newContact();
  await eachWriteMovesTheTag(t, '/v1/contacts', contact.id, { first_name: 'Stale' }, [
    ['a field', 'PATCH', { first_name: 'Grace' }],
    ['a custom field only', 'PATCH', { custom_fields: { tier: 'gold' } }],
    ['archived by PATCH', 'PATCH', { status: 'archived' }],
    ['made active again', 'PATCH', { status: 'active' }],
    ['archived by DELETE', 'DELETE', undefined],
    ['another custom field value', 'PATCH', { custom_fields: { tier: 'silver' } }],
  ]);
});

t.test('deal: the ETag changes after each kind of write, however quickly they follow', async (t) => {
  const deal = await newDeal();
  await eachWriteMovesTheTag(t, '/v1/deals', deal.id, { name: 'Stale' }, [
    ['a field', 'PATCH', { name: 'Renamed' }],
    ['a custom field only', 'PATCH', { custom_fields: { source: 'web' } }],
    ['a stage move', 'PATCH', { stage_id: defaultPipeline.stages[1]!.id }],
    ['a pipeline move', 'PATCH', { pipeline_id: other.id }],
    ['the amount', 'PATCH', { amount: 250 }],
  ]);
});

t.test('a version stamped ahead of this clock (another worker whose clock runs fast) is still followed by a later one', async (t) => {
  for (const [path, table, body] of [['/v1/contacts', 'contacts', { first_name: 'Later' }], ['/v1/deals', 'deals', { name: 'Later' }]] as const) {
    const id = path === '/v1/contacts' ? (await newContact()).id : (await newDeal()).id;
    await stack.db.query(`update ${table} set updated_at = now() + interval '1 hour' where workspace_id = $1 and id = $2`, [ws.workspace.id, id]);
    const ahead = (await api.get<{ updated_at: string }>(`${path}/${id}`)).body.updated_at;
    const res = await api.send<{ updated_at: string }>('PATCH', `${path}/${id}`, { body, headers: { 'If-Match': `"${ahead}"` } });
    t.equal(res.status, 200, table);
    // Before: the write stamped this clock's time, an hour earlier, and a version could repeat an older one's tag.
    t.ok(res.body.updated_at > ahead, `${table}: updated_at moved forward (${ahead} → ${res.body.updated_at})`);
  }
});

t.test('a cached read is answered in full; If-Match elsewhere is a 412 whatever it holds; a tag too long is a stale tag', async (t) => {
  const contact = await newContact();
  const tag = etagOf(await api.get(`/v1/contacts/${contact.id}`)) ?? '';
  // Before, express answered 304 with no body, which the API says it never does.
  const cached = await api.get<Contact>(`/v1/contacts/${contact.id}`, { 'if-none-match': tag });
  t.equal(cached.status, 200, 'If-None-Match naming the current tag');
  t.equal(cached.body.id, contact.id);
  // Before, a malformed If-Match on an endpoint without tags became a 400; it was and is a 412 there.
  const note = await api.send<ErrorBody>('POST', '/v1/notes', { body: { contact_id: contact.id, body: 'Guarded' }, headers: { 'if-match': 'v1' } });
  t.equal(note.status, 412, 'If-Match: v1 on a write without tags');
  const long = await api.send<ErrorBody>('PATCH', `/v1/contacts/${contact.id}`, { body: { first_name: 'Long' }, headers: { 'if-match': `"${'x'.repeat(80)}"` } });
  t.equal(long.status, 412, 'a tag longer than any version: a stale tag, not a 400 naming expected_versions');
  t.equal((await api.get<Contact>(`/v1/contacts/${contact.id}`)).body.first_name, 'Ada', 'unchanged');
});
