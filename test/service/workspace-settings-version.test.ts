import t from 'tap';
import type { Contact, ErrorBody } from '../helpers/api-types.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * A contacts worker creates with the workspace setup (default country, field definitions)
 * it last read, and the insert holds only while Postgres's settings_version is unchanged
 * (migration 0012). Each change below is made by another process than the contacts worker
 * (the schema worker, or SQL), right after a create warmed the worker's copy: the next
 * create must behave as if it had read the settings afresh, and a refused one writes nothing.
 */

const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const workspaceId = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(workspaceId, ['contacts:write', 'schema:write', 'events:read']));

let phone = 3000;
const newPhone = () => `+1 415 555 ${phone++}`;
const version = async () => (await stack.db.query<{ v: number }>('select settings_version v from workspaces where id = $1', [workspaceId]))[0]?.v;
const stored = async () =>
  (await stack.db.query<{ contacts: string; events: string }>(
    `select (select count(*) from contacts where workspace_id = $1) contacts, (select count(*) from events where workspace_id = $1 and type = 'contact.created') events`,
    [workspaceId],
  ))[0];
const warm = async () => t.equal((await api.post<Contact>('/v1/contacts', { first_name: 'Warm', phone: newPhone() })).status, 201, 'a create warms the worker');
const define = async (body: Record<string, unknown>) => {
  const res = await api.post<{ id: string }>('/v1/custom-fields', body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id;
};

t.test('Postgres raises the version when a field definition or a setting changes, and only then', async (t) => {
  const start = await version();
  t.type(start, 'number');
  const id = await define({ object_type: 'contact', key: 'source', label: 'Source', type: 'text' });
  const afterDefine = await version();
  t.ok(afterDefine! > start!, 'defining a field');
  await api.send('PATCH', `/v1/custom-fields/${id}`, { body: { label: 'Lead source' } });
  t.ok((await version())! > afterDefine!, 'changing a field');
  const beforeRename = await version();
  await stack.db.query('update workspaces set name = name where id = $1', [workspaceId]);
  t.equal(await version(), beforeRename, 'an update that touches no setting leaves it');
  await api.send('PATCH', '/v1/workspace', { body: { time_zone: 'Europe/Paris' } });
  t.ok((await version())! > beforeRename!, 'the time zone');
  const beforeDelete = await version();
  await stack.db.query(`delete from custom_fields where id = $1`, [id]);
  t.ok((await version())! > beforeDelete!, 'deleting a field');
});

t.test('a field defined after the worker read the setup is accepted at once', async (t) => {
  await warm();
  await define({ object_type: 'contact', key: 'nickname', label: 'Nickname', type: 'text' });
  const res = await api.post<Contact>('/v1/contacts', { first_name: 'New', phone: newPhone(), custom_fields: { nickname: 'Ace' } });
  t.equal(res.status, 201, JSON.stringify(res.body));
  t.equal(res.body.custom_fields.nickname, 'Ace');
});

t.test('a field made required after the worker read the setup refuses the create, which writes nothing', async (t) => {
  const id = await define({ object_type: 'contact', key: 'region', label: 'Region', type: 'select', options: ['EMEA', 'AMER'] });
  await warm();
  t.equal((await api.send('PATCH', `/v1/custom-fields/${id}`, { body: { required: true } })).status, 200);
  const before = await stored();
  const res = await api.post<ErrorBody>('/v1/contacts', { first_name: 'NoRegion', phone: newPhone() });
  t.equal(res.status, 400, JSON.stringify(res.body));
  t.equal(res.body.error.param, 'custom_fields.region');
  t.same(await stored(), before, 'no contact and no event');
  const ok = await api.post<Contact>('/v1/contacts', { first_name: 'Region', phone: newPhone(), custom_fields: { region: 'EMEA' } });
  t.equal(ok.status, 201);
  await api.send('PATCH', `/v1/custom-fields/${id}`, { body: { required: false } });
});

t.test('an archived field is refused right after it is archived, and accepted when restored', async (t) => {
  const id = await define({ object_type: 'contact', key: 'legacy', label: 'Legacy', type: 'text' });
  await warm();
  await api.send('PATCH', `/v1/custom-fields/${id}`, { body: { archived: true } });
  const refused = await api.post<ErrorBody>('/v1/contacts', { first_name: 'L', phone: newPhone(), custom_fields: { legacy: 'x' } });
  t.equal(refused.status, 400);
  t.match(refused.body.error.message, /archived/);
  await api.send('PATCH', `/v1/custom-fields/${id}`, { body: { archived: false } });
  t.equal((await api.post<Contact>('/v1/contacts', { first_name: 'L', phone: newPhone(), custom_fields: { legacy: 'x' } })).status, 201);
});

t.test('a new default country reads the next phone without a country code', async (t) => {
  await warm();
  t.equal((await api.send('PATCH', '/v1/workspace', { body: { default_country: 'GB' } })).status, 200);
  const res = await api.post<Contact>('/v1/contacts', { first_name: 'London', phone: '020 7946 0018' });
  t.equal(res.status, 201, JSON.stringify(res.body));
  t.equal(res.body.phone, '+442079460018', 'read in GB, not in US');
  await api.send('PATCH', '/v1/workspace', { body: { default_country: 'US' } });
  const back = await api.post<Contact>('/v1/contacts', { first_name: 'Back', phone: '(415) 555-9000' });
  t.equal(back.body.phone, '+14155559000', 'and in US again once set back');
});

t.test('a phone in use is still a 409 naming the contact, with the setup unchanged', async (t) => {
  const first = await api.post<Contact>('/v1/contacts', { first_name: 'One', phone: '+1 415 555 7777' });
  t.equal(first.status, 201);
  const before = await stored();
  const again = await api.post<ErrorBody>('/v1/contacts', { first_name: 'Two', phone: '(415) 555-7777' });
  t.equal(again.status, 409);
  t.equal(again.body.error.existing_id, first.body.id);
  t.same(await stored(), before, 'nothing written');
});

t.test('with an Idempotency-Key (a transaction), a create made right after a change uses the new setup, and its replay returns it', async (t) => {
  await warm();
  await define({ object_type: 'contact', key: 'tier', label: 'Tier', type: 'text' });
  // Input the old setup accepts too: only the insert's version check can notice the change.
  const body = { first_name: 'Keyed', phone: newPhone() };
  const headers = { 'idempotency-key': `settings-${Date.now()}` };
  const res = await api.post<Contact>('/v1/contacts', body, headers);
  t.equal(res.status, 201, JSON.stringify(res.body));
  t.equal(res.body.custom_fields.tier, null, 'made with the new field definitions');
  const replay = await api.post<Contact>('/v1/contacts', body, headers);
  t.equal(replay.status, 201);
  t.equal(replay.body.id, res.body.id, 'the same contact, created once');
});
