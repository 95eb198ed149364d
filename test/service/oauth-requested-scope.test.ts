import { randomBytes } from 'node:crypto';
import t from 'tap';
import { authorizeUrl, authorizeWithForms, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * An authorization request's `scope` narrows the grant (least privilege): the client gets what
 * it asked for that the membership allows and the server offers. Before, the scope was stored
 * and ignored, and `scope=contacts:read` got every read scope of the server.
 */
const REDIRECT = 'http://127.0.0.1:9/requested-scope-cb';
const EMAIL = 'requested-scope@example.test';
const stack = await useStack(t);
const base = stack.baseUrl;
await stack.bootstrap({ email: EMAIL });

/** Authorize with `scope` (none when undefined), approve, exchange: the scopes the client was granted. */
async function grantedScopes(scope: string | undefined, o: { clientId?: string; allowChanges?: boolean } = {}) {
  // A name of its own: a grant to a registration with the same name and redirect URIs counts as prior, offering writes.
  const clientId = o.clientId ?? (await registerClient(base, REDIRECT, `Requested scope agent ${randomBytes(4).toString('hex')}`));
  const { verifier, challenge } = pkce();
  const at = { baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm' as const, challenge };
  const url = authorizeUrl(at, scope === undefined ? {} : { scope });
  const { code } = await authorizeWithForms({ ...at, url, email: EMAIL, password: TEST_PASSWORD, allowChanges: o.allowChanges });
  const tokens = await tokenRequest(base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT });
  if (tokens.status !== 200) throw new Error(`token exchange: ${tokens.status} ${String(tokens.body.error)}`);
  return { clientId, scopes: String(tokens.body.scope).split(' ').sort() };
}

t.test('no scope: every read the membership allows, as before', async (t) => {
  t.same((await grantedScopes(undefined)).scopes, ['contacts:read', 'deals:read', 'events:read', 'schema:read']);
});

t.test('scope=contacts:read: that alone', async (t) => {
  t.same((await grantedScopes('contacts:read')).scopes, ['contacts:read']);
});

t.test('values the server does not offer are ignored', async (t) => {
  t.same((await grantedScopes('openid contacts:read studio:read')).scopes, ['contacts:read'], 'the offered one only');
  t.same((await grantedScopes('openid')).scopes, ['contacts:read', 'deals:read', 'events:read', 'schema:read'], 'none offered: as if no scope');
});

t.test('a requested write: its read at the first consent, the write itself at a later one', async (t) => {
  const first = await grantedScopes('deals:write', { allowChanges: true });
  t.same(first.scopes, ['deals:read'], 'the first grant to a client stays read-only');
  const second = await grantedScopes('deals:read deals:write', { clientId: first.clientId, allowChanges: true });
  t.same(second.scopes, ['deals:read', 'deals:write'], 'not contacts:write, which was not asked for');
});

t.test("the scope a tool server's 401 names still lets a re-authorization allow changes", async (t) => {
  const challenge = (await fetch(`${base}/mcp/crm`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).headers.get('www-authenticate') ?? '';
  const scope = /scope="([^"]*)"/.exec(challenge)?.[1];
  t.ok(scope, 'the 401 names a scope, which clients such as the MCP SDK send as is');
  const first = await grantedScopes(scope, { allowChanges: true });
  t.same(first.scopes, ['contacts:read', 'deals:read', 'events:read', 'schema:read'], 'a first connection: read-only');
  const second = await grantedScopes(scope, { clientId: first.clientId, allowChanges: true });
  t.same(second.scopes, ['contacts:read', 'contacts:write', 'deals:read', 'deals:write', 'events:read', 'schema:read'], 'again, with "Allow changes": the writes too');
});
