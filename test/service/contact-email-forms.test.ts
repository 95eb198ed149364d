import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Contact, ErrorBody, ListPage } from '../helpers/api-types.js';

/**
 * One mailbox, one stored form: info@xn--mller-kva.de (the domain in punycode, as many systems
 * export it) was stored as typed beside info@müller.de, and the email filter found only the form
 * asked for. And addresses no mail server takes (a local part past 64 bytes) were stored.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write']));
const count = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from contacts where workspace_id = $1', [ws.workspace.id]))[0]?.n);
const byEmail = async (email: string) => (await api.get<ListPage<Contact>>(`/v1/contacts?email=${encodeURIComponent(email)}`)).body.data.map((c) => c.id);

t.test('a domain in punycode or full-width letters is stored in its Unicode form', async (t) => {
  const res = await api.post<Contact>('/v1/contacts', { first_name: 'Ina', phone: '+1 415 555 0141', email: 'Info@XN--MLLER-KVA.de' });
  t.equal(res.status, 201);
  t.equal(res.body.email, 'info@müller.de');
  const wide = await api.post<Contact>('/v1/contacts', { first_name: 'Wim', phone: '+1 415 555 0142', email: 'wim@ｅｘａｍｐｌｅ.com' });
  t.equal(wide.body.email, 'wim@example.com');
  t.same(await byEmail('info@xn--mller-kva.de'), [res.body.id], 'found by the punycode form');
  t.same(await byEmail('INFO@MÜLLER.DE'), [res.body.id], 'and by the Unicode form');
});

t.test('a contact stored before, with its domain in punycode, is found by either form', async (t) => {
  const res = await api.post<Contact>('/v1/contacts', { first_name: 'Old', phone: '+1 415 555 0143', email: 'old@bücher.de' });
  await stack.db.query(`update contacts set email = 'old@xn--bcher-kva.de' where id = $1`, [res.body.id]);
  t.same(await byEmail('old@bücher.de'), [res.body.id]);
  t.same(await byEmail('old@xn--bcher-kva.de'), [res.body.id]);
});

t.test('a local part past 64 bytes, or an address past 254 characters, is a 400 that says which', async (t) => {
  const before = await count();
  const local = await api.post<ErrorBody>('/v1/contacts', { first_name: 'L', phone: '+1 415 555 0144', email: `${'a'.repeat(65)}@example.com` });
  t.equal(local.status, 400);
  t.equal(local.body.error.param, 'email');
  t.equal(local.body.error.message, 'email: must be an e-mail address: the part before @ is at most 64 characters (bytes in UTF-8)');
  t.equal((await api.post('/v1/contacts', { first_name: 'L', phone: '+1 415 555 0145', email: `${'a'.repeat(64)}@example.com` })).status, 201, '64 is fine');
  const long = await api.post<ErrorBody>('/v1/contacts', { first_name: 'L', phone: '+1 415 555 0146', email: `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(10)}.com` });
  t.equal(long.status, 400);
  t.equal(long.body.error.message, 'email: must be at most 254 characters, the longest an e-mail address can be');
  t.equal(await count(), before + 1, 'only the valid one was stored');
});
