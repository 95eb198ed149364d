import t from 'tap';
import { signInToConsole } from '../helpers/console-forms.js';
import { client } from '../helpers/http.js';
import { authorizeWithForms, FormBrowser, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Members' and connected agents' events: members added (command line, console invitation),
 * changed and removed; agents connected at the consent page and revoked by an
 * administrator, by their client, by the service (a replayed refresh token), and with their
 * member. Refused writes store none; only a token that may manage tokens reads them.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const REDIRECT = 'http://127.0.0.1:9/cb';
const ws = await stack.bootstrap();
const admin = { id: ws.user.id, email: ws.user.email };
const api = client(base, await stack.token(ws.workspace.id, ['tokens:write', 'events:read'], { name: 'events reader' }));
const forms = await signInToConsole(base, ws.workspace.id, admin.email, TEST_PASSWORD);
const adminActor = { kind: 'console_user', id: admin.id, name: admin.email, user: admin };

interface EventBody {
  id: string;
  type: string;
  actor: { kind: string; id: string | null; name: string; user: { id: string; email: string } | null };
  data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> | null };
}
const events = async (query: string) => (await api.get<{ data: EventBody[] }>(`/v1/events?limit=100&${query}`)).body.data;

const repEmail = `rep-${Date.now()}@example.test`;
const repId = await stack.addMember(ws.workspace.id, repEmail, ['contacts.read'], 'all');
const rep = { id: repId, email: repEmail };
const repBrowser = new FormBrowser();

/** An agent the rep connects through the real consent form; its grant id, from its event. */
async function connectAgent(name: string): Promise<{ clientId: string; grantId: string; tokens: Record<string, unknown>; connected: EventBody }> {
  const clientId = await registerClient(base, REDIRECT, name);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email: repEmail, password: TEST_PASSWORD, challenge, workspaceId: ws.workspace.id, browser: repBrowser });
  const connected = (await events('type=agent.connected')).find((e) => (e.data.object.client as { id: string }).id === clientId);
  if (!connected) throw new Error(`no agent.connected for ${name}`);
  const tokens = await tokenRequest(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource: `${base}/mcp/crm` });
  return { clientId, grantId: connected.data.object.id as string, tokens: tokens.body, connected };
}

t.test('the command line adds a member, then changes it: member.added, member.updated', async (t) => {
  await stack.addMember(ws.workspace.id, repEmail, ['contacts.read', 'contacts.write'], 'all');
  const [updated, added] = await events(`object_id=${repId}`);
  t.equal(added?.type, 'member.added');
  t.match(added?.actor, { kind: 'cli', id: null });
  t.match(added?.data.object, { object: 'member', id: repId, user_id: repId, email: repEmail, workspace_id: ws.workspace.id, permissions: ['contacts.read'], visibility: 'all' });
  t.equal(updated?.type, 'member.updated');
  t.same(updated?.data.previous_attributes, { permissions: ['contacts.read'] });
  t.same(updated?.data.object.permissions, ['contacts.read', 'contacts.write']);

  // The same grant in another order, with a repeat: no change, so no event.
  await stack.addMember(ws.workspace.id, repEmail, ['contacts.write', 'contacts.read', 'contacts.write'], 'all');
  t.equal((await events(`object_id=${repId}`)).length, 2, 'the same permissions in another order record nothing');
  const stored = await stack.db.query<{ permissions: string[] }>('select permissions from memberships where workspace_id = $1 and user_id = $2', [ws.workspace.id, repId]);
  t.same(stored[0]?.permissions, ['contacts.read', 'contacts.write'], 'stored once each, in one order');
});

t.test('in the console: invited, changed, by the administrator', async (t) => {
  const email = `invitee-${Date.now()}@example.test`;
  const invited = await forms.post('/members', { email, permissions: 'contacts.read', visibility: 'owned' });
  t.equal(invited.status, 200, 'the invitation page');
  const [added] = (await events('type=member.added')).filter((e) => e.data.object.email === email);
  t.same(added?.actor, adminActor);
  t.match(added?.data.object, { object: 'member', email, permissions: ['contacts.read'], visibility: 'owned' });
  const userId = String(added?.data.object.id);

  const changed = await forms.post(`/members/${userId}`, { permissions: ['contacts.read', 'deals.read'], visibility: 'all' });
  t.equal(changed.status, 303);
  const [updated] = await events(`object_id=${userId}`);
  t.equal(updated?.type, 'member.updated');
  t.same(updated?.actor, adminActor);
  t.same(updated?.data.previous_attributes, { permissions: ['contacts.read'], visibility: 'owned' });
  t.match(updated?.data.object, { permissions: ['contacts.read', 'deals.read'], visibility: 'all' });

  t.equal((await forms.post(`/members/${userId}`, { permissions: ['contacts.read', 'deals.read'], visibility: 'all' })).status, 303, 'the same again');
  t.equal((await events(`object_id=${userId}`)).length, 2, 'changes nothing, stores nothing');
});

t.test('refused member changes store nothing', async (t) => {
  const before = (await events('type=member.')).length;
  t.equal((await forms.post(`/members/${admin.id}`, { permissions: 'contacts.read', visibility: 'all' })).status, 409, 'the last administrator keeps Configuration');
  t.equal((await forms.post(`/members/${admin.id}/remove`, {})).status, 409, 'and stays');
  t.equal((await forms.post('/members', { email: repEmail, permissions: 'contacts.read', visibility: 'all' })).status, 409, 'already a member');
  t.equal((await events('type=member.')).length, before);
});

t.test('connected at the consent page, by the user as a console user', async (t) => {
  const { clientId, grantId, connected } = await connectAgent('Events Agent');
  t.match(grantId, /^gnt_/);
  t.same(connected.actor, { kind: 'console_user', id: repId, name: repEmail, user: rep });
  t.match(connected.data.object, { object: 'agent', id: grantId, client: { id: clientId, name: 'Events Agent' }, user: rep, revoked_at: null });
  t.ok((connected.data.object.scopes as string[]).includes('contacts:read'));
  t.equal(connected.data.previous_attributes, null);

  t.equal((await forms.post(`/agents/${grantId}/revoke`, {})).status, 303, 'revoked by the administrator');
  t.equal((await forms.post(`/agents/${grantId}/revoke`, {})).status, 303, 'and again');
  const [revoked, ...rest] = await events(`object_id=${grantId}`);
  t.equal(rest.length, 1, 'connected, revoked once');
  t.equal(revoked?.type, 'agent.revoked');
  t.same(revoked?.actor, adminActor);
  t.same(revoked?.data.previous_attributes, { revoked_at: null });
  t.type(revoked?.data.object.revoked_at, 'string');
});

t.test('revoked by its client (RFC 7009): the agent is the actor', async (t) => {
  const { clientId, grantId, tokens } = await connectAgent('Self Revoking Agent');
  const res = await fetch(`${base}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: String(tokens.refresh_token), client_id: clientId }),
  });
  t.equal(res.status, 200);
  const [revoked] = await events(`object_id=${grantId}`);
  t.equal(revoked?.type, 'agent.revoked');
  t.same(revoked?.actor, { kind: 'oauth_agent', id: grantId, name: 'Self Revoking Agent', user: rep });
});

t.test('a replayed refresh token: revoked by the service', async (t) => {
  const { clientId, grantId, tokens } = await connectAgent('Leaky Agent');
  const refresh = { grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token), client_id: clientId };
  t.equal((await tokenRequest(base, refresh)).status, 200);
  t.equal((await tokenRequest(base, refresh)).status, 400, 'the same refresh token again');
  const [revoked] = await events(`object_id=${grantId}`);
  t.equal(revoked?.type, 'agent.revoked');
  t.match(revoked?.actor, { kind: 'system', id: null });
});

t.test('removing a member: member.removed, and agent.revoked for each agent still connected', async (t) => {
  const { grantId } = await connectAgent('Member Agent');
  const revokedBefore = (await events('type=agent.revoked')).length;
  const records = client(base, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'events:read'], { name: 'records writer' }));
  const contact = (await records.post<{ id: string }>('/v1/contacts', { first_name: 'Owned', phone: '+14155550142', owner_id: repId })).body.id;
  const deal = (await records.post<{ id: string }>('/v1/deals', { name: 'Owned deal', owner_id: repId })).body.id;
  t.equal((await forms.post(`/members/${repId}/remove`, {})).status, 303);
  for (const [id, type] of [[contact, 'contact.updated'], [deal, 'deal.updated']]) {
    const [disowned] = (await records.get<{ data: EventBody[] }>(`/v1/events?object_id=${id}`)).body.data;
    t.equal(disowned?.type, type, `${type}: what the member owned becomes unowned, and says so`);
    t.same(disowned?.actor, adminActor);
    t.equal(disowned?.data.object.owner_id, null);
    t.same(disowned?.data.previous_attributes, { owner_id: repId });
  }
  const [removed] = await events(`object_id=${repId}`);
  t.equal(removed?.type, 'member.removed');
  t.same(removed?.actor, adminActor);
  t.match(removed?.data.object, { object: 'member', id: repId, email: repEmail, permissions: ['contacts.read', 'contacts.write'] });
  const revoked = await events('type=agent.revoked');
  t.equal(revoked.length, revokedBefore + 1, 'only the agent still connected');
  t.match(revoked[0], { actor: adminActor, data: { object: { id: grantId, user: rep }, previous_attributes: { revoked_at: null } } });
  t.equal((await stack.db.query('select 1 from oauth_grants where id = $1', [grantId])).length, 0, 'the grant went with the membership');
});

t.test('a member who owned more than one statement of records: every record unowned, each with its event', async (t) => {
  const seller = await stack.addMember(ws.workspace.id, `seller-${Date.now()}@example.test`, ['contacts.write'], 'all');
  const owned = 2_345;
  await stack.db.query(
    `insert into contacts (id, workspace_id, first_name, phone, status, owner_id, created_at, updated_at)
     select 'con_bulk' || lpad(n::text, 6, '0'), $1, 'Bulk ' || n, '+1628555' || lpad(n::text, 4, '0'), 'active', $2, now(), now()
     from generate_series(1, $3::int) as n`,
    [ws.workspace.id, seller, owned],
  );
  t.equal((await forms.post(`/members/${seller}/remove`, {})).status, 303);
  const [left] = await stack.db.query<{ n: string }>('select count(*) n from contacts where workspace_id = $1 and owner_id is not null and id like $2', [ws.workspace.id, 'con_bulk%']);
  t.equal(Number(left?.n), 0, 'none keeps the owner');
  const [recorded] = await stack.db.query<{ n: string; ids: string }>(
    `select count(*) n, count(distinct object_id) ids from events where workspace_id = $1 and type = 'contact.updated' and previous_attributes ->> 'owner_id' = $2`,
    [ws.workspace.id, seller],
  );
  t.equal(Number(recorded?.n), owned, 'one event per record');
  t.equal(Number(recorded?.ids), owned, 'each record once');
});

t.test('only a token that may manage tokens reads member and agent events', async (t) => {
  t.ok((await events('type=agent.')).length >= 5);
  const reader = client(base, await stack.token(ws.workspace.id, ['contacts:read', 'events:read'], { name: 'contacts reader' }));
  const seen = await reader.get<{ data: EventBody[] }>('/v1/events?limit=100');
  t.equal(seen.status, 200);
  t.same(seen.body.data.filter((e) => /^(member|agent|token)\./.test(e.type)), []);
});
