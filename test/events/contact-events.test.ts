import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/** Every contact write over REST stores one event with its actor and what changed; refused writes store none. */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const tokenName = 'events writer';
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'events:read'], { name: tokenName }));

interface EventBody {
  id: string;
  type: string;
  request_id: string | null;
  actor: { kind: string; id: string | null; name: string };
  data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> | null };
}
const eventsOf = async (objectId: string) => (await api.get<{ data: EventBody[] }>(`/v1/events?object_id=${objectId}`)).body.data;

t.test('create, update, archive: one event each, newest first, with the token as actor', async (t) => {
  const created = await api.post<{ id: string }>('/v1/contacts', { first_name: 'Ada', phone: '+1 415 555 0100' });
  t.equal(created.status, 201);
  const id = created.body.id;
  const updated = await api.send('PATCH', `/v1/contacts/${id}`, { body: { first_name: 'Ada B.', custom_fields: {} } });
  t.equal(updated.status, 200);
  t.equal((await api.send('DELETE', `/v1/contacts/${id}`)).status, 200);
  t.equal((await api.send('DELETE', `/v1/contacts/${id}`)).status, 200, 'archived again: nothing changes');

  const events = await eventsOf(id);
  t.same(events.map((e) => e.type), ['contact.archived', 'contact.updated', 'contact.created']);
  const [archived, update, create] = events as [EventBody, EventBody, EventBody];
  t.match(create.actor, { kind: 'api_token', name: tokenName });
  t.match(create.id, /^evt_/);
  t.equal(create.data.object.first_name, 'Ada');
  t.equal(create.data.previous_attributes, null);
  t.same(update.data.previous_attributes, { first_name: 'Ada' }, 'only what changed, with its old value');
  t.equal(update.data.object.first_name, 'Ada B.');
  t.equal(update.request_id, updated.headers.get('request-id'), 'the request that made it');
  t.same(archived.data.previous_attributes, { status: 'active' });

  const one = await api.get<EventBody>(`/v1/events/${update.id}`);
  t.equal(one.status, 200);
  t.same(one.body, update);
});

t.test('a PATCH that repeats the values changes nothing: no event, the same updated_at', async (t) => {
  const created = await api.post<{ id: string; updated_at: string }>('/v1/contacts', { first_name: 'Grace', last_name: 'H', phone: '+1 415 555 0102' });
  t.equal(created.status, 201);
  const { id, updated_at: updatedAt } = created.body;
  await new Promise((resolve) => setTimeout(resolve, 5));
  const same = await api.send<{ updated_at: string }>('PATCH', `/v1/contacts/${id}`, { body: { first_name: 'Grace', last_name: 'H', phone: '(415) 555-0102', status: 'active', custom_fields: {} } });
  t.equal(same.status, 200);
  t.equal(same.body.updated_at, updatedAt, 'updated_at stays: nothing changed behind the feed');
  t.same((await eventsOf(id)).map((e) => e.type), ['contact.created'], 'and no contact.updated is stored');
});

t.test('a PATCH that archives records contact.archived, as DELETE does', async (t) => {
  const id = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Hedy', phone: '+1 415 555 0103' })).body.id;
  t.equal((await api.send('PATCH', `/v1/contacts/${id}`, { body: { status: 'archived', last_name: 'L' } })).status, 200);
  t.equal((await api.send('PATCH', `/v1/contacts/${id}`, { body: { status: 'active' } })).status, 200);
  const [restored, archived] = await eventsOf(id);
  t.match(archived, { type: 'contact.archived', data: { object: { status: 'archived' }, previous_attributes: { status: 'active', last_name: null } } });
  t.match(restored, { type: 'contact.updated', data: { previous_attributes: { status: 'archived' } } }, 'making it active again is an update');
});

t.test('refused writes store nothing', async (t) => {
  const before = (await api.get<{ data: EventBody[] }>('/v1/events?limit=100')).body.data.length;
  t.equal((await api.post('/v1/contacts', { first_name: '', phone: '+1 415 555 0101' })).status, 400);
  t.equal((await api.post('/v1/contacts', { first_name: 'Dup', phone: '+1 415 555 0100' })).status, 409);
  t.equal((await api.send('PATCH', '/v1/contacts/con_nope', { body: { first_name: 'X' } })).status, 404);
  t.equal((await api.get<{ data: EventBody[] }>('/v1/events?limit=100')).body.data.length, before);
});

t.test('the workspace starts with its administrator joining, by the command line', async (t) => {
  const admin = client(stack.baseUrl, await stack.token(ws.workspace.id, ['tokens:write', 'events:read']));
  const joined = (await admin.get<{ data: EventBody[] }>(`/v1/events?type=member.added&object_id=${ws.user.id}`)).body.data;
  t.equal(joined.length, 1);
  t.match(joined[0], { actor: { kind: 'cli', id: null }, data: { object: { object: 'member', email: ws.user.email, permissions: ['contacts.read', 'contacts.write', 'deals.read', 'deals.write', 'configuration'] } } });
});
