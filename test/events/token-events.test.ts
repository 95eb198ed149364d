import t from 'tap';
import { client } from '../helpers/http.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';
import { storedEvents as storedEventsOf } from '../helpers/stored-events.js';

/**
 * API tokens' events: created (over REST, in the console, by the command line, by a token
 * for a child) and revoked (one event per token, children included), never with the
 * secret; refused writes store none; only a token that may manage tokens reads them.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const ws = await stack.bootstrap();
const adminName = 'token events admin';
const adminSecret = await stack.token(ws.workspace.id, ['tokens:write', 'events:read', 'contacts:read'], { name: adminName });
const admin = client(base, adminSecret);
const secrets = [adminSecret];

interface EventBody {
  id: string;
  type: string;
  request_id: string | null;
  actor: { kind: string; id: string | null; name: string; user: { id: string; email: string } | null };
  data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> | null };
}
interface TokenBody {
  id: string;
  token: string;
  parent_id: string | null;
}
const eventsOf = async (objectId: string) => (await admin.get<{ data: EventBody[] }>(`/v1/events?object_id=${objectId}`)).body.data;
const tokenEvents = async () => (await admin.get<{ data: EventBody[] }>('/v1/events?type=token.&limit=100')).body.data;
const adminId = (await admin.get<{ data: { id: string; name: string }[] }>('/v1/tokens')).body.data.find((x) => x.name === adminName)?.id ?? '';

async function create(api: ReturnType<typeof client>, name: string, scopes: string[]): Promise<TokenBody> {
  const res = await api.post<TokenBody>('/v1/tokens', { name, scopes });
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  secrets.push(res.body.token);
  return res.body;
}

t.test('the command line creates a token: token.created by the cli', async (t) => {
  const [created] = await eventsOf(adminId);
  t.equal(created?.type, 'token.created');
  t.match(created?.actor, { kind: 'cli', id: null });
  t.match(created?.data.object, { object: 'token', id: adminId, name: adminName, revoked_at: null });
});

t.test('over REST, a child token and its own child: token.created with the creating token as actor, no secret', async (t) => {
  const child = await create(admin, 'child', ['tokens:write', 'events:read']);
  t.equal(child.parent_id, adminId);
  const [event] = await eventsOf(child.id);
  t.equal(event?.type, 'token.created');
  t.same(event?.actor, { kind: 'api_token', id: adminId, name: adminName, user: null });
  const { token: _secret, ...resource } = child;
  t.same(event?.data.object, resource, 'the REST resource, without the secret');
  t.notOk('token' in (event?.data.object ?? {}));
  t.equal(event?.data.previous_attributes, null);

  const grandchild = await create(client(base, child.token), 'grandchild', ['events:read']);
  t.match((await eventsOf(grandchild.id))[0], { type: 'token.created', actor: { kind: 'api_token', id: child.id, name: 'child' }, data: { object: { parent_id: child.id } } });
});

t.test('in the console: token.created by the console user', async (t) => {
  const forms = await signInToConsole(base, ws.workspace.id, ws.user.email, TEST_PASSWORD);
  const made = await forms.post('/tokens', { name: 'console made', scopes: 'contacts:read', expires_on: '' });
  t.equal(made.status, 200, 'the token is shown once');
  const shown = /sk_live_[0-9A-Za-z]+/.exec(await made.text())?.[0];
  if (shown) secrets.push(shown);
  const event = (await tokenEvents()).find((e) => e.data.object.name === 'console made');
  t.equal(event?.type, 'token.created');
  t.same(event?.actor, { kind: 'console_user', id: ws.user.id, name: ws.user.email, user: { id: ws.user.id, email: ws.user.email } });
});

t.test('revoking with its children: one token.revoked each, once; the revoked tokens stop working', async (t) => {
  const parent = await create(admin, 'parent', ['tokens:write', 'contacts:read']);
  const kid = await create(client(base, parent.token), 'kid', ['contacts:read']);
  const alreadyRevoked = await create(client(base, parent.token), 'revoked before', ['contacts:read']);
  t.equal((await admin.send('DELETE', `/v1/tokens/${alreadyRevoked.id}`)).status, 200);

  const revoked = await admin.send('DELETE', `/v1/tokens/${parent.id}?revoke_children=true`);
  t.equal(revoked.status, 200);
  t.equal((await admin.send('DELETE', `/v1/tokens/${parent.id}?revoke_children=true`)).status, 200, 'revoking again changes nothing');

  for (const token of [parent, kid, alreadyRevoked]) {
    const events = await eventsOf(token.id);
    t.same(events.map((e) => e.type), ['token.revoked', 'token.created'], `${token.id}: created, revoked once`);
    const [revocation] = events;
    t.same(revocation?.data.previous_attributes, { revoked_at: null });
    t.type(revocation?.data.object.revoked_at, 'string');
    t.same(revocation?.actor, { kind: 'api_token', id: adminId, name: adminName, user: null });
  }
  t.equal((await eventsOf(parent.id))[0]?.request_id, revoked.headers.get('request-id'), 'the request that revoked it');

  for (const token of [parent, kid]) {
    let status = 0;
    for (const started = Date.now(); Date.now() - started < 5000; await new Promise((r) => setTimeout(r, 100))) {
      status = (await client(base, token.token).get('/v1/contacts')).status;
      if (status === 401) break;
    }
    t.equal(status, 401, `${token.id} stops working within 5 s`);
  }
});

t.test('refused writes store nothing', async (t) => {
  const before = (await tokenEvents()).length;
  t.equal((await admin.post('/v1/tokens', { name: 'too much', scopes: ['deals:write'] })).status, 403, 'a scope it does not hold');
  t.equal((await admin.post('/v1/tokens', { name: '', scopes: ['contacts:read'] })).status, 400);
  t.equal((await admin.send('DELETE', '/v1/tokens/tok_nope')).status, 404);
  const reader = client(base, await stack.token(ws.workspace.id, ['contacts:read', 'events:read'], { name: 'reader' }));
  t.equal((await reader.post('/v1/tokens', { name: 'x', scopes: ['contacts:read'] })).status, 403, 'no tokens:write');
  t.equal((await tokenEvents()).length, before + 1, 'only the command line\'s token for the reader');
});

t.test('only a token that may manage tokens reads their events', async (t) => {
  t.ok((await tokenEvents()).length > 5);
  const reader = client(base, await stack.token(ws.workspace.id, ['contacts:read', 'events:read'], { name: 'contacts reader' }));
  const seen = await reader.get<{ data: EventBody[] }>('/v1/events?limit=100');
  t.equal(seen.status, 200);
  t.same(seen.body.data.filter((e) => e.type.startsWith('token.')), [], 'none of the token events');
  const one = (await tokenEvents())[0];
  t.equal((await reader.get(`/v1/events/${one?.id ?? ''}`)).status, 404, 'nor one by its id');
});

t.test('no stored event holds a secret', async (t) => {
  const rows = (await storedEventsOf(stack.db, ws.workspace.id)).map((e) => ({ text: JSON.stringify([e.data, e.actor, e.previous_attributes]) }));
  t.ok(rows.length > 5, 'the workspace\'s events');
  t.ok(secrets.length >= 6, 'the secrets handed out');
  t.same(rows.filter(({ text }) => secrets.some((s) => text.includes(s))), [], 'none holds a secret handed out');
  // The display hint (sk_live_… and four characters) is all of a token an event may show.
  t.same(rows.filter(({ text }) => /sk_live_[0-9A-Za-z]{5}/.test(text)), [], 'nor anything shaped like one');
});
