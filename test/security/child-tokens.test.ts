import t from 'tap';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { createToken, type ApiToken } from '../../shared/contracts/tokens.js';
import type { ErrorBody } from '../helpers/api-types.js';
import { busAs } from '../helpers/bus-as.js';
import { client } from '../helpers/http.js';
import { whileHeld } from '../helpers/held-lock.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * Tokens that create tokens (`tokens:write`) over REST, on real NATS and Postgres. Before,
 * a token that expired in an hour could mint one that never expired, and revoking the
 * parent left its children working.
 */
const stack = await useStack(t);
const { workspace } = await stack.bootstrap();
const admin = client(stack.baseUrl, await stack.token(workspace.id, ['tokens:write', 'contacts:read'], { name: 'admin' }));

type Created = ApiToken & { token: string };
const HOUR = 3_600_000;

async function parentToken(expiresInMs: number): Promise<{ token: string; row: ApiToken; api: ReturnType<typeof client> }> {
  const expiresAt = new Date(Date.now() + expiresInMs).toISOString();
  const token = await stack.token(workspace.id, ['tokens:write', 'contacts:read'], { name: 'one-hour parent', expiresAt });
  const api = client(stack.baseUrl, token);
  const me = await api.get<{ id: string }>('/v1/me');
  return { token, row: (await admin.get<ApiToken>(`/v1/tokens/${me.body.id}`)).body, api };
}

const tokenCount = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from api_tokens where workspace_id = $1', [workspace.id]))[0]?.n);

async function waitForStatus(api: ReturnType<typeof client>, status: number, withinMs: number): Promise<number> {
  const until = Date.now() + withinMs;
  let last = 0;
  while (Date.now() < until) {
    last = (await api.get('/v1/me')).status;
    if (last === status) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last;
}

t.test('a child created without an expiry takes its parent\'s, and names its parent', async (t) => {
  // Before: expires_at null, a permanent token minted by a one-hour one.
  const parent = await parentToken(HOUR);
  for (const body of [{ name: 'no expiry asked' }, { name: 'null expiry', expires_at: null }]) {
    const child = await parent.api.post<Created>('/v1/tokens', { ...body, scopes: ['contacts:read'] });
    t.equal(child.status, 201, body.name);
    t.equal(child.body.expires_at, parent.row.expires_at, `${body.name}: expires with its parent`);
    t.equal(child.body.parent_id, parent.row.id, `${body.name}: names its parent`);
    t.equal(child.body.created_by, parent.row.id);
  }
  const sooner = new Date(Date.now() + HOUR / 2).toISOString();
  const shorter = await parent.api.post<Created>('/v1/tokens', { name: 'shorter', scopes: ['contacts:read'], expires_at: sooner });
  t.equal(shorter.status, 201, 'an earlier expiry is kept');
  t.equal(shorter.body.expires_at, sooner);

  const byAdmin = await admin.post<Created>('/v1/tokens', { name: 'top level', scopes: ['contacts:read'] });
  t.equal(byAdmin.body.expires_at, null, 'a token without expiry may still create tokens without one');
  t.equal(byAdmin.body.parent_id, byAdmin.body.created_by, 'and names it as parent');
  const byOperator = await admin.get<ApiToken>(`/v1/tokens/${byAdmin.body.created_by}`);
  t.equal(byOperator.body.parent_id, null, 'a token made by the command line has no parent');
});

t.test('a token granting a scope it does not hold is told which, as every missing scope is: 403 missing_scope with required_scope', async (t) => {
  const parent = await parentToken(HOUR);
  const before = await tokenCount();
  // Before: code "forbidden" without required_scope, unlike any other scope the token lacks.
  const wider = await parent.api.post<ErrorBody>('/v1/tokens', { name: 'wider', scopes: ['contacts:read', 'deals:read', 'webhooks:write'] });
  t.equal(wider.status, 403);
  t.equal(wider.body.error.code, 'missing_scope');
  t.equal(wider.body.error.type, 'permission_error');
  t.equal(wider.body.error.required_scope, 'deals:read');
  t.match(wider.body.error.message, /does not hold deals:read \(nor webhooks:write\)/);
  const write = await parent.api.post<ErrorBody>('/v1/tokens', { name: 'write', scopes: ['contacts:write'] });
  t.equal(write.body.error.required_scope, 'contacts:write', 'contacts:read does not grant contacts:write');
  t.equal(await tokenCount(), before, 'nothing was created');
  t.equal((await parent.api.post<Created>('/v1/tokens', { name: 'within', scopes: ['contacts:read'] })).status, 201, 'what it holds is granted');
});

t.test('a child asking to outlive its parent is refused and nothing is created', async (t) => {
  const parent = await parentToken(HOUR);
  const before = await tokenCount();
  const later = new Date(Date.now() + 365 * 86_400_000).toISOString();
  const res = await parent.api.post<ErrorBody>('/v1/tokens', { name: 'outlives', scopes: ['contacts:read'], expires_at: later });
  t.equal(res.status, 400);
  t.equal(res.body.error.code, 'validation_failed');
  t.equal(res.body.error.param, 'expires_at');
  t.match(res.body.error.message, /later than the expiry of the token creating it/);
  t.equal(await tokenCount(), before, 'no token was created');

  // Nor through a grandchild: the child's expiry bounds its own children.
  const child = await parent.api.post<Created>('/v1/tokens', { name: 'child', scopes: ['tokens:write', 'contacts:read'] });
  const grandchild = await client(stack.baseUrl, child.body.token).post<ErrorBody>('/v1/tokens', { name: 'grandchild', scopes: ['contacts:read'], expires_at: later });
  t.equal(grandchild.status, 400);
  t.equal(grandchild.body.error.param, 'expires_at');
});

t.test('revoking with revoke_children ends the whole lineage at once; without it, only the token', async (t) => {
  const parent = await parentToken(HOUR);
  const child = await parent.api.post<Created>('/v1/tokens', { name: 'child', scopes: ['tokens:write', 'contacts:read'] });
  const childApi = client(stack.baseUrl, child.body.token);
  const grandchild = await childApi.post<Created>('/v1/tokens', { name: 'grandchild', scopes: ['contacts:read'] });
  t.equal(grandchild.body.parent_id, child.body.id);
  const grandchildApi = client(stack.baseUrl, grandchild.body.token);
  const bystander = client(stack.baseUrl, await stack.token(workspace.id, ['contacts:read'], { name: 'bystander' }));
  // Each is used once, so each gateway holds it as valid in its cache.
  for (const api of [parent.api, childApi, grandchildApi, bystander]) t.equal((await api.get('/v1/me')).status, 200);

  const bad = await admin.send<ErrorBody>('DELETE', `/v1/tokens/${parent.row.id}?revoke_children=maybe`);
  t.equal(bad.status, 400, 'a malformed flag is refused');
  t.equal(bad.body.error.param, 'revoke_children');
  t.equal((await parent.api.get('/v1/me')).status, 200, 'and revokes nothing');

  const revoked = await admin.send<ApiToken>('DELETE', `/v1/tokens/${parent.row.id}?revoke_children=true`);
  t.equal(revoked.status, 200);
  t.ok(revoked.body.revoked_at);
  // Well inside the gateway's 3 s cache: the broadcast dropped every one of them.
  for (const [label, api] of [['parent', parent.api], ['child', childApi], ['grandchild', grandchildApi]] as const) {
    t.equal(await waitForStatus(api, 401, 1_000), 401, `${label} refused at once`);
  }
  t.equal((await bystander.get('/v1/me')).status, 200, 'an unrelated token still works');
  const rows = await stack.db.query<{ id: string; revoked_at: Date | null }>('select id, revoked_at from api_tokens where workspace_id = $1 and id = any($2)', [
    workspace.id,
    [child.body.id, grandchild.body.id],
  ]);
  t.equal(rows.filter((r) => r.revoked_at !== null).length, 2, 'both descendants are revoked in the database');

  const other = await parentToken(HOUR);
  const otherChild = await other.api.post<Created>('/v1/tokens', { name: 'kept child', scopes: ['contacts:read'] });
  t.equal((await admin.send('DELETE', `/v1/tokens/${other.row.id}`)).status, 200);
  t.equal((await client(stack.baseUrl, otherChild.body.token).get('/v1/me')).status, 200, 'without the flag, children stay');
});

t.test('crm tokens revoke --children ends the lineage as revoke_children=true does', async (t) => {
  // Before, the command line could revoke a token only on its own.
  const parent = await parentToken(HOUR);
  const child = await parent.api.post<Created>('/v1/tokens', { name: 'cli child', scopes: ['contacts:read'] });
  const revoked = await stack.crm(['tokens', 'revoke', '--workspace', workspace.id, parent.row.id, '--children']);
  t.equal(revoked.code, 0, revoked.stderr);
  t.match(revoked.stdout, /with every token it created and theirs/);
  t.equal(await waitForStatus(client(stack.baseUrl, child.body.token), 401, 5_000), 401, 'the child is refused');
  const rows = await stack.db.query<{ revoked_at: Date | null }>('select revoked_at from api_tokens where id = $1', [child.body.id]);
  t.ok(rows[0]?.revoked_at, 'and revoked in the database');
});

t.test('a child created while its parent is being revoked waits, then is refused', async (t) => {
  const parent = await parentToken(HOUR);
  t.equal((await parent.api.get('/v1/me')).status, 200);
  // The other side of the race: a revocation of the parent, holding its lock until it commits.
  const revocation = [
    { sql: 'select id from api_tokens where workspace_id = $1 and id = $2 for update', params: [workspace.id, parent.row.id] },
    { sql: 'update api_tokens set revoked_at = now() where workspace_id = $1 and id = $2', params: [workspace.id, parent.row.id] },
  ];
  const { result, waited } = await whileHeld(stack.db.url, revocation, () => parent.api.post<ErrorBody>('/v1/tokens', { name: 'slipped past', scopes: ['contacts:read'] }));
  t.ok(waited, 'the creation waits for the revocation');
  // Before: 403 forbidden, though the token is what failed, as its every later request (401) says.
  t.equal(result.status, 401, 'then finds its parent revoked: the credential is no longer valid');
  t.equal(result.body.error.code, 'unauthenticated');
  t.match(result.headers.get('www-authenticate'), /^Bearer/);
  const alive = await stack.db.query('select id from api_tokens where workspace_id = $1 and parent_id = $2 and revoked_at is null', [workspace.id, parent.row.id]);
  t.equal(alive.length, 0, 'no live child of the revoked parent');
});

t.test('a token that expires while its request is on the way mints nothing, rather than a child already expired', async (t) => {
  // The gateway let the request through a moment before the expiry; the tokens worker creates the child after it.
  const gateway = await busAs(t, stack, 'gateway', { timeoutMs: 15_000 });
  const parent = await parentToken(HOUR);
  // Its expiry passes now (set in the database: waiting out a short one races the command line that creates it).
  await stack.db.query("update api_tokens set expires_at = now() - interval '1 second' where workspace_id = $1 and id = $2", [workspace.id, parent.row.id]);
  const context: CallContext = { workspace_id: workspace.id, principal: { type: 'token', id: parent.row.id, scopes: ['tokens:write', 'contacts:read'] }, visibility: 'all' };
  const before = await tokenCount();
  // Before: created, with its parent's expiry, already past: a 201 and a secret that no request could use.
  await t.rejects(gateway.call(createToken, { name: 'born expired', scopes: ['contacts:read'] }, { context, requestId: 'req_expired_parent' }), {
    code: 'unauthenticated',
    message: /expired/,
  });
  t.equal(await tokenCount(), before, 'no token was created');
});

t.test('a signed-in user acting with narrower scopes than their membership grants no more than those', async (t) => {
  // An agent's grant (or any user credential) may hold fewer scopes than the member's
  // permissions allow: before, the membership alone bounded what it could mint.
  const gateway = await busAs(t, stack, 'gateway', { timeoutMs: 15_000 });
  const ws = await stack.bootstrap();
  const context: CallContext = { workspace_id: ws.workspace.id, principal: { type: 'user', id: ws.user.id, scopes: ['tokens:write', 'contacts:read'] }, visibility: 'all' };
  await t.rejects(gateway.call(createToken, { name: 'wider', scopes: ['contacts:write'] }, { context, requestId: 'req_user_wider' }), { code: 'forbidden' });
  const created = await stack.db.query('select id from api_tokens where workspace_id = $1', [ws.workspace.id]);
  t.equal(created.length, 0, 'the refusal created nothing');
  const narrower = await gateway.call(createToken, { name: 'within', scopes: ['contacts:read'] }, { context, requestId: 'req_user_within' });
  t.same(narrower.result.scopes, ['contacts:read'], 'what the credential holds is granted');
});
