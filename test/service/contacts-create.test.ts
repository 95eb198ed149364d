import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Contact, ErrorBody } from '../helpers/api-types.js';

const stack = await useStack(t);

const ws = await stack.bootstrap({ defaultCountry: 'US' });
const noCountry = await stack.bootstrap();
const writer = await stack.token(ws.workspace.id, ['contacts:write']);
const reader = await stack.token(ws.workspace.id, ['contacts:read']);
const api = client(stack.baseUrl, writer);
const count = async (workspaceId = ws.workspace.id) =>
  Number((await stack.db.query<{ n: string }>('select count(*) as n from contacts where workspace_id = $1', [workspaceId]))[0]?.n);

t.test('creates a contact: 201, Location, E.164 phone, the full resource', async (t) => {
  const res = await api.post<Contact & Record<string, unknown>>('/v1/contacts', {
    first_name: '  Grace ',
    last_name: 'Hopper',
    email: 'Grace@Navy.MIL',
    phone: '+44 20 7946 0958',
  });
  t.equal(res.status, 201);
  t.equal(res.headers.get('location'), `${stack.baseUrl}/v1/contacts/${res.body.id}`);
  t.match(res.headers.get('request-id'), /^req_/);
  t.match(res.body, {
    object: 'contact',
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@navy.mil',
    phone: '+442079460958',
    status: 'active',
    custom_fields: {},
    owner_id: null,
  });
  t.match(res.body.id, /^con_[0-9A-Z]{26}$/);
  t.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

t.test('one phone written two ways is a 409 phone_taken the second time', async (t) => {
  const first = await api.post<Contact>('/v1/contacts', { first_name: 'Ada', phone: '+1 415 555 0100' });
  t.equal(first.status, 201);
  t.equal(first.body.phone, '+14155550100');
  const second = await api.post<ErrorBody>('/v1/contacts', { first_name: 'Ada again', phone: '(415) 555-0100' });
  t.equal(second.status, 409);
  t.equal(second.body.error.code, 'phone_taken');
  t.equal(second.body.error.param, 'phone');
  t.equal(second.body.error.existing_id, first.body.id, "names the existing contact's id");
  t.equal(second.body.error.type, 'invalid_request_error');
});

t.test('20 concurrent creates of one phone: exactly one 201 and nineteen 409s', async (t) => {
  const before = await count();
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => api.post<Contact | ErrorBody>('/v1/contacts', { first_name: `Racer ${i}`, phone: '+1 415 555 0142' })),
  );
  const statuses = results.map((r) => r.status).sort();
  t.same(statuses, [201, ...Array(19).fill(409)]);
  const winner = results.find((r) => r.status === 201)?.body as Contact;
  for (const r of results.filter((r) => r.status === 409)) t.equal((r.body as ErrorBody).error.existing_id, winner.id);
  t.equal(await count(), before + 1, 'one row stored');
});

t.test('bad input is a clear 400 and stores nothing', async (t) => {
  const before = await count();
  const cases: [string, { rawBody?: string; body?: unknown; contentType?: string }, number, string, string | undefined][] = [
    ['invalid JSON', { rawBody: '{"first_name": "A",' }, 400, 'invalid_json', undefined],
    ['a JSON array', { body: [{ first_name: 'A', phone: '+14155550111' }] }, 400, 'validation_failed', undefined],
    ['missing first_name', { body: { phone: '+1 415 555 0111' } }, 400, 'validation_failed', 'first_name'],
    ['blank first_name', { body: { first_name: '   ', phone: '+1 415 555 0111' } }, 400, 'validation_failed', 'first_name'],
    ['missing phone', { body: { first_name: 'A' } }, 400, 'validation_failed', 'phone'],
    ['unparseable phone', { body: { first_name: 'A', phone: 'call me maybe' } }, 400, 'validation_failed', 'phone'],
    ['impossible phone', { body: { first_name: 'A', phone: '+1 555 555 5555' } }, 400, 'validation_failed', 'phone'],
    ['phone with extension', { body: { first_name: 'A', phone: '+1 415 555 0111 ext. 12' } }, 400, 'validation_failed', 'phone'],
    ['unknown field', { body: { first_name: 'A', phone: '+1 415 555 0111', nickname: 'x' } }, 400, 'validation_failed', 'nickname'],
    ['bad e-mail', { body: { first_name: 'A', phone: '+1 415 555 0111', email: 'not-an-email' } }, 400, 'validation_failed', 'email'],
    ['e-mail with two dots in its domain', { body: { first_name: 'A', phone: '+1 415 555 0111', email: 'a@müller..de' } }, 400, 'validation_failed', 'email'],
    ['e-mail without a top-level domain', { body: { first_name: 'A', phone: '+1 415 555 0111', email: 'josé@example' } }, 400, 'validation_failed', 'email'],
    ['wrong type', { body: { first_name: 42, phone: '+1 415 555 0111' } }, 400, 'validation_failed', 'first_name'],
    ['bad status', { body: { first_name: 'A', phone: '+1 415 555 0111', status: 'deleted' } }, 400, 'validation_failed', 'status'],
    ['unknown custom field', { body: { first_name: 'A', phone: '+1 415 555 0111', custom_fields: { tier: 'gold' } } }, 400, 'validation_failed', 'custom_fields.tier'],
    ['control characters', { body: { first_name: 'A\u0007', phone: '+1 415 555 0111' } }, 400, 'validation_failed', 'first_name'],
    ['overlong name', { body: { first_name: 'x'.repeat(101), phone: '+1 415 555 0111' } }, 400, 'validation_failed', 'first_name'],
    ['a name of only invisible characters', { body: { first_name: '\u200b\u2060', phone: '+1 415 555 0111' } }, 400, 'validation_failed', 'first_name'],
    ['not JSON at all', { rawBody: 'first_name=A', contentType: 'application/x-www-form-urlencoded' }, 415, 'unsupported_media_type', undefined],
    ['no body at all', { rawBody: '', contentType: 'text/plain' }, 400, 'validation_failed', undefined],
    ['JSON sent as text/plain', { rawBody: '{"first_name":"A"}', contentType: '' }, 415, 'unsupported_media_type', undefined],
    ['too large', { body: { first_name: 'A', phone: '+1 415 555 0111', last_name: 'x'.repeat(200_000) } }, 413, 'payload_too_large', undefined],
  ];
  for (const [label, req, status, code, param] of cases) {
    const headers: Record<string, string> = req.contentType !== undefined ? (req.contentType ? { 'content-type': req.contentType } : {}) : { 'content-type': 'application/json' };
    const res = await api.send<ErrorBody>('POST', '/v1/contacts', { body: req.body, rawBody: req.rawBody, headers });
    t.equal(res.status, status, `${label}: status`);
    t.equal(res.body.error?.code, code, `${label}: code`);
    if (param) t.equal(res.body.error.param, param, `${label}: names ${param}`);
    t.match(res.body.error?.request_id, /^req_/, `${label}: request id`);
  }
  t.equal(await count(), before, 'nothing was stored');
});

t.test('an internationalised e-mail address (RFC 6531) is kept as written, composed and lower-cased', async (t) => {
  const cases: [string, string, string][] = [
    ['Info@Müller.de', '+1 415 555 0131', 'info@müller.de'],
    // é typed as e and a combining accent: the same address as é typed at once.
    ['Jose\u0301@example.com', '+1 415 555 0132', 'jos\u00e9@example.com'],
    ['用户@例子.广告', '+1 415 555 0133', '用户@例子.广告'],
  ];
  for (const [email, phone, stored] of cases) {
    const res = await api.post<Contact>('/v1/contacts', { first_name: 'Intl', phone, email });
    t.equal(res.status, 201, `${email} is taken`);
    t.equal(res.body.email, stored);
  }
  const found = await api.get<{ data: Contact[] }>(`/v1/contacts?email=${encodeURIComponent('JOSE\u0301@EXAMPLE.COM')}`);
  t.same(found.body.data.map((c) => c.email), ['jos\u00e9@example.com'], 'the email filter finds it typed the other way, in capitals');
});

t.test('a blank last_name is no last name: null, never ""', async (t) => {
  for (const [blank, phone] of [['', '+1 415 555 0121'], ['   ', '+1 415 555 0122'], ['\u200b', '+1 415 555 0123']] as const) {
    const res = await api.post<Contact>('/v1/contacts', { first_name: 'Mononym', last_name: blank, phone });
    t.equal(res.status, 201);
    t.equal(res.body.last_name, null, `${JSON.stringify(blank)} is stored as null`);
  }
  const named = await api.post<Contact>('/v1/contacts', { first_name: 'Ada', last_name: 'Lovelace', phone: '+1 415 555 0124' });
  const cleared = await api.send<Contact>('PATCH', `/v1/contacts/${named.body.id}`, { body: { last_name: '' } });
  t.equal(cleared.status, 200);
  t.equal(cleared.body.last_name, null, 'PATCH with "" clears it, as null does');
  const [row] = await stack.db.query<{ last_name: string | null }>('select last_name from contacts where id = $1', [named.body.id]);
  t.equal(row?.last_name, null);
});

t.test('a phone without country code needs the workspace default_country', async (t) => {
  const token = await stack.token(noCountry.workspace.id, ['contacts:write']);
  const res = await client(stack.baseUrl, token).post<ErrorBody>('/v1/contacts', { first_name: 'A', phone: '(415) 555-0100' });
  t.equal(res.status, 400);
  t.equal(res.body.error.param, 'phone');
  t.match(res.body.error.message, /default_country/);
  t.equal(await count(noCountry.workspace.id), 0);
  const ok = await client(stack.baseUrl, token).post('/v1/contacts', { first_name: 'A', phone: '+1 (415) 555-0100' });
  t.equal(ok.status, 201, 'the same phone with a country code is fine, and phones are per workspace');
});

t.test('a token with only contacts:read gets 403 naming contacts:write', async (t) => {
  const before = await count();
  const res = await client(stack.baseUrl, reader).post<ErrorBody>('/v1/contacts', { first_name: 'A', phone: '+1 415 555 0177' });
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'missing_scope');
  t.equal(res.body.error.required_scope, 'contacts:write');
  t.match(res.body.error.message, /contacts:write/);
  t.notMatch(res.body.error.message, /contacts:read/, 'names exactly the missing scope');
  t.equal(await count(), before);
  const list = await client(stack.baseUrl, writer).get('/v1/contacts');
  t.equal(list.status, 200, 'contacts:write implies contacts:read');
});

t.test('Idempotency-Key: a retried POST replays the first response and stores one contact', async (t) => {
  const before = await count();
  const body = { first_name: 'Once', phone: '+1 415 555 0188' };
  const headers = { 'Idempotency-Key': 'create-once-1' };
  const first = await api.post<Contact>('/v1/contacts', body, headers);
  const again = await api.post<Contact>('/v1/contacts', body, headers);
  t.equal(first.status, 201);
  t.equal(again.status, 201);
  t.same(again.body, first.body, 'same response');
  t.equal(JSON.stringify(again.body), JSON.stringify(first.body), 'its fields in the same order');
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.equal(again.headers.get('location'), first.headers.get('location'));
  t.equal(await count(), before + 1, 'one contact stored');

  const concurrent = await Promise.all(
    Array.from({ length: 8 }, () => api.post<Contact>('/v1/contacts', { first_name: 'Burst', phone: '+1 415 555 0189' }, { 'Idempotency-Key': 'burst-1' })),
  );
  t.same(new Set(concurrent.map((r) => r.status)), new Set([201]), 'concurrent retries all succeed');
  t.equal(new Set(concurrent.map((r) => r.body.id)).size, 1, 'with one contact');
  t.equal(await count(), before + 2);

  const reused = await api.post<ErrorBody>('/v1/contacts', { first_name: 'Other', phone: '+1 415 555 0190' }, headers);
  t.equal(reused.status, 409, 'the same key with a different body is refused');
  t.equal(reused.body.error.code, 'idempotency_key_reused');
  t.equal(await count(), before + 2);

  // Another caller's key is not a replay for this one: its response was made for the first caller.
  const otherWriter = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write']));
  const notTheirs = await otherWriter.post<ErrorBody & Partial<Contact>>('/v1/contacts', body, headers);
  t.equal(notTheirs.status, 409, 'the same key and body from another token is refused, not replayed');
  t.equal(notTheirs.body.error?.code, 'idempotency_key_reused');
  t.equal(notTheirs.body.id, undefined, "the first caller's contact is not shown");
  t.equal(await count(), before + 2);

  const bad = await api.post<ErrorBody>('/v1/contacts', body, { 'Idempotency-Key': 'x'.repeat(300) });
  t.equal(bad.status, 400);
  t.equal(bad.body.error.param, 'Idempotency-Key');
});
