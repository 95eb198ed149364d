import { createHmac, hkdfSync } from 'node:crypto';
import t from 'tap';
import { signInToConsole } from '../helpers/console-forms.js';
import { client, request } from '../helpers/http.js';
import { TEST_PASSWORD } from '../helpers/operator.js';
import { useStack } from '../helpers/shared-stack.js';
import type { ErrorBody } from '../helpers/api-types.js';

const stack = await useStack(t);

const a = await stack.bootstrap({ defaultCountry: 'US' });
const b = await stack.bootstrap({ defaultCountry: 'US' });

t.test('GET /v1/me describes the calling token', async (t) => {
  const res = await stack.crm(['tokens', 'create', '--workspace', a.workspace.id, '--scopes', 'contacts:read', '--name', 'me test', '--expires-in', '30d', '--json']);
  const created = JSON.parse(res.stdout) as { id: string; token: string; expires_at: string };
  const me = await client(stack.baseUrl, created.token).get('/v1/me');
  t.equal(me.status, 200);
  t.same(me.body, {
    object: 'token',
    id: created.id,
    name: 'me test',
    workspace: { id: a.workspace.id, name: a.workspace.name },
    organization: { id: a.organization.id, name: a.organization.name },
    scopes: ['contacts:read'],
    created_by: null,
    expires_at: created.expires_at,
  });
});

t.test('401 with WWW-Authenticate for a missing, malformed or unknown token', async (t) => {
  const cases: [string, Record<string, string>][] = [
    ['no header', {}],
    ['not bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['malformed', { authorization: 'Bearer not-a-token' }],
    ['unknown', { authorization: `Bearer sk_live_${'A'.repeat(43)}` }],
  ];
  for (const [label, headers] of cases) {
    const res = await request<ErrorBody>(`${stack.baseUrl}/v1/contacts`, { headers });
    t.equal(res.status, 401, label);
    t.equal(res.body.error.code, 'unauthenticated', label);
    t.match(res.headers.get('www-authenticate'), /^Bearer/, label);
  }
});

t.test('a revoked token is refused within 5 seconds', async (t) => {
  const res = await stack.crm(['tokens', 'create', '--workspace', a.workspace.id, '--scopes', 'contacts:read', '--json']);
  const { id, token } = JSON.parse(res.stdout) as { id: string; token: string };
  const api = client(stack.baseUrl, token);
  t.equal((await api.get('/v1/contacts')).status, 200, 'works, and is now cached by the gateway');
  const revoked = await stack.crm(['tokens', 'revoke', '--workspace', a.workspace.id, id, '--json']);
  t.equal(revoked.code, 0, revoked.stderr);
  const start = Date.now();
  let status = 200;
  while (status === 200 && Date.now() - start < 6000) {
    status = (await api.get('/v1/contacts')).status;
    if (status === 200) await new Promise((r) => setTimeout(r, 100));
  }
  const elapsed = Date.now() - start;
  t.equal(status, 401, 'refused');
  t.ok(elapsed < 5000, `refused ${elapsed} ms after the revocation`);
  const body = (await api.get<ErrorBody>('/v1/contacts')).body;
  t.match(body.error.message, /revoked/);
});

t.test('an expired token is refused', async (t) => {
  const token = await stack.token(a.workspace.id, ['contacts:read'], { name: 'expiring', expiresAt: new Date(Date.now() + 2000).toISOString() });
  const api = client(stack.baseUrl, token);
  t.equal((await api.get('/v1/me')).status, 200);
  await new Promise((r) => setTimeout(r, 2200));
  const res = await api.get<ErrorBody>('/v1/me');
  t.equal(res.status, 401);
  t.match(res.body.error.message, /expired/);

  // Listed until revoked, but marked as expired rather than shown like a working token.
  const { id } = (await client(stack.baseUrl, await stack.token(a.workspace.id, ['tokens:write'])).get<{ data: { id: string; name: string }[] }>('/v1/tokens?limit=100')).body.data.find(
    (listed) => listed.name === 'expiring',
  ) ?? { id: 'missing' };
  const listed = await stack.crm(['tokens', 'list', '--workspace', a.workspace.id]);
  t.match(listed.stdout, new RegExp(`${id} .* EXPIRED \\d{4}-`), 'crm tokens list says EXPIRED');
  const consoleForms = await signInToConsole(stack.baseUrl, a.workspace.id, a.user.email, TEST_PASSWORD);
  const page = await (await consoleForms.browser.request(`${stack.baseUrl}/console/w/${a.workspace.id}/tokens`)).text();
  t.match(page, /<td>Expired <time/, 'the console says Expired');
});

t.test("a token of workspace A never reads workspace B's contacts", async (t) => {
  const tokenA = await stack.token(a.workspace.id, ['contacts:read', 'contacts:write']);
  const tokenB = await stack.token(b.workspace.id, ['contacts:read', 'contacts:write']);
  await client(stack.baseUrl, tokenB).post('/v1/contacts', { first_name: 'Secret B', phone: '+1 415 555 0123' });
  const created = await client(stack.baseUrl, tokenA).post<{ id: string }>('/v1/contacts', { first_name: 'Only A', phone: '+1 415 555 0123' });
  t.equal(created.status, 201, 'the same phone in another workspace is allowed');
  const listA = await client(stack.baseUrl, tokenA).get<{ data: { first_name: string }[] }>('/v1/contacts?limit=100');
  t.notOk(JSON.stringify(listA.body).includes('Secret B'));
  t.ok(listA.body.data.every((c) => c.first_name !== 'Secret B'));
  const meA = await client(stack.baseUrl, tokenA).get<{ workspace: { id: string } }>('/v1/me');
  t.equal(meA.body.workspace.id, a.workspace.id);
  const tenantHeader = await client(stack.baseUrl, tokenA).get('/v1/contacts', { 'X-Workspace-Id': b.workspace.id });
  t.notOk(JSON.stringify(tenantHeader.body).includes('Secret B'), 'no header can switch the workspace');
});

t.test('tokens: plaintext only in the create output, only a keyed hash stored, never logged', async (t) => {
  const res = await stack.crm(['tokens', 'create', '--workspace', a.workspace.id, '--scopes', 'contacts:read,contacts:write', '--json']);
  const created = JSON.parse(res.stdout) as { id: string; token: string; display_hint: string };
  t.match(created.token, /^sk_live_[0-9A-Za-z]{43}$/);
  t.equal(created.display_hint, `sk_live_…${created.token.slice(-4)}`);
  const api = client(stack.baseUrl, created.token);
  await api.post('/v1/contacts', { first_name: 'Logged?', phone: '+1 415 555 0144' });
  await api.get('/v1/me');
  await request(`${stack.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${created.token}x` } });

  const rows = await stack.db.query<{ token_hash: string; row: string }>('select token_hash, t::text as row from api_tokens t where id = $1', [created.id]);
  const expected = createHmac('sha256', Buffer.from(hkdfSync('sha256', stack.env.CRM_SECRET ?? '', 'workspace-crm', 'api-token-hash', 32)))
    .update(created.token)
    .digest('hex');
  t.equal(rows[0]?.token_hash, expected, 'the database holds the HMAC-SHA-256 of the token');
  const dump = await stack.db.query<{ row: string }>('select t::text as row from api_tokens t');
  t.notOk(dump.some((r) => r.row.includes(created.token.slice(8))), 'no stored row contains the token');

  const list = await stack.crm(['tokens', 'list', '--workspace', a.workspace.id, '--json']);
  t.notOk(list.stdout.includes(created.token.slice(8)), 'listing never shows it');
  t.ok(list.stdout.includes(created.display_hint), 'only the hint');

  const logs = await stack.allOutput();
  t.ok(logs.length > 0);
  t.notOk(logs.includes(created.token.slice(8)), 'no log line contains the token');
  t.notMatch(logs, /sk_live_[0-9A-Za-z]{43}/, 'no log line contains any token');
});

t.test('tokens list and revoke stay inside their workspace', async (t) => {
  const res = await stack.crm(['tokens', 'create', '--workspace', b.workspace.id, '--scopes', 'contacts:read', '--json']);
  const { id } = JSON.parse(res.stdout) as { id: string };
  const wrong = await stack.crm(['tokens', 'revoke', '--workspace', a.workspace.id, id]);
  t.equal(wrong.code, 1, 'revoking from another workspace fails');
  t.match(wrong.stderr, /No such token/);
  const listA = await stack.crm(['tokens', 'list', '--workspace', a.workspace.id, '--json']);
  t.notOk(listA.stdout.includes(id));
});
