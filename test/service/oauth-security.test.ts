import { createHash, randomBytes } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import t from 'tap';
import { openDatabase } from '../../shared/db/orm.js';
import { deriveSecrets } from '../../shared/secrets.js';
import { activeSigningKey } from '../../workers/tokens/oauth/signing-keys.js';
import { authorizeUrl, authorizeWithForms, field, FormBrowser, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/** The authorization server under attack: PKCE, redirects, codes, refresh tokens, JWTs, CSRF, sign-in. */
const REDIRECT = 'http://127.0.0.1:9/cb';
const stack = await useStack(t);
const base = stack.baseUrl;
const ws = await stack.bootstrap({ email: 'sec@example.test' });
const CRM = `${base}/mcp/crm`;

async function fullGrant(server: 'crm' | 'studio' = 'crm', withVerifier?: string) {
  const clientId = await registerClient(base, REDIRECT);
  const { verifier, challenge } = withVerifier === undefined ? pkce() : { verifier: withVerifier, challenge: createHash('sha256').update(withVerifier).digest('base64url') };
  const { code, browser } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server, email: 'sec@example.test', password: TEST_PASSWORD, challenge });
  return { clientId, verifier, code, browser };
}
const exchange = (g: { clientId: string; code: string; verifier: string }, extra: Record<string, string> = {}) =>
  tokenRequest(base, { grant_type: 'authorization_code', client_id: g.clientId, code: g.code, code_verifier: g.verifier, redirect_uri: REDIRECT, ...extra });
const refresh = (clientId: string, refreshToken: string) => tokenRequest(base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
const mcpStatus = async (token: string, url = CRM) =>
  (
    await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
  ).status;
async function statusWithin(token: string, expected: number, ms: number): Promise<number> {
  const start = Date.now();
  let status = await mcpStatus(token);
  while (status !== expected && Date.now() - start < ms) {
    await new Promise((r) => setTimeout(r, 200));
    status = await mcpStatus(token);
  }
  return Date.now() - start;
}

t.test('metadata: RFC 8414, RFC 9728 for each server, JWKS', async (t) => {
  const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  t.match(as, {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    jwks_uri: `${base}/.well-known/jwks.json`,
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
  });
  t.same(as.response_modes_supported, ['query'], 'authorization responses go in the query only (left out, RFC 8414 §2 would promise fragment too)');
  for (const server of ['crm', 'studio']) {
    const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp/${server}`)).json()) as Record<string, unknown>;
    t.match(prm, { resource: `${base}/mcp/${server}`, authorization_servers: [base] });
  }
  const unauthenticated = await fetch(CRM, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  t.equal(unauthenticated.status, 401);
  t.equal(
    unauthenticated.headers.get('www-authenticate'),
    `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp/crm", scope="contacts:read deals:read schema:read events:read contacts:write deals:write"`,
    'no error code (RFC 6750 §3.1), the scopes to ask for (MCP 2025-11-25): all of them, which consent narrows',
  );
  const body = (await unauthenticated.json()) as Record<string, unknown>;
  t.equal(body.error, undefined, 'nor an error code in the body');
  t.match(body.error_description, /Authorization needed/);
  await fullGrant();
  const jwks = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: { kty: string; kid: string; d?: string }[] };
  t.ok(jwks.keys.length >= 1 && jwks.keys.every((k) => k.kty === 'EC' && k.kid && k.d === undefined), 'public EC keys only');
});

t.test('registration: public clients only, redirect URIs checked', async (t) => {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Wants a secret', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  t.equal(res.status, 201);
  t.equal(body.client_secret, undefined, 'no secret, whatever was asked');
  t.equal(body.token_endpoint_auth_method, 'none');
  const stored = await stack.db.query('select * from oauth_clients where id = $1', [body.client_id]);
  t.notOk(JSON.stringify(stored).includes('client_secret'), 'nor stored');
  // RFC 7591 §3.2.2: a refused redirect URI is invalid_redirect_uri, checked by the gateway's parser (javascript:, not a URL) or the worker.
  for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'not a url', 'https://ok.example/cb#frag', 'https://ok.example/cb#', 'com.example.app:/cb']) {
    const bad = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT, uri] }) });
    t.equal(bad.status, 400, uri);
    t.equal(((await bad.json()) as Record<string, unknown>).error, 'invalid_redirect_uri', `${uri}: invalid_redirect_uri`);
  }
  const register = async (metadata: Record<string, unknown>) => {
    const res = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], ...metadata }) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  // RFC 7591 §3.2.1: the answer is what was registered, so it must not promise grants this server never issues.
  const extra = await register({ grant_types: ['authorization_code', 'refresh_token', 'client_credentials'], response_types: ['code', 'token'] });
  t.equal(extra.status, 201, 'unsupported values beside the supported ones: registered');
  t.same(extra.body.grant_types, ['authorization_code', 'refresh_token'], 'without client_credentials');
  t.same(extra.body.response_types, ['code'], 'without token');
  const [registered] = await stack.db.query<{ metadata: Record<string, unknown> }>('select metadata from oauth_clients where id = $1', [extra.body.client_id]);
  t.same(registered?.metadata.grant_types, ['authorization_code', 'refresh_token'], 'and stored so');
  for (const [label, metadata] of [
    ['only client_credentials', { grant_types: ['client_credentials'] }],
    ['refresh_token without authorization_code', { grant_types: ['refresh_token'] }],
    ['only the implicit response type', { response_types: ['token'] }],
    ['21 redirect URIs', { redirect_uris: Array.from({ length: 21 }, (_, i) => `https://ok.example/cb${i}`) }],
  ] as const) {
    const refused = await register(metadata);
    t.equal(refused.status, 400, `${label}: refused`);
    t.equal(refused.body.error, 'invalid_client_metadata', `${label}: invalid_client_metadata`);
  }
  t.equal((await register({ redirect_uris: Array.from({ length: 20 }, (_, i) => `https://ok.example/cb${i}`) })).status, 201, '20 redirect URIs, as in a metadata document: registered');
  // The consent page shows the name: a right-to-left override or a zero-width character could make it read as another client's.
  for (const name of ['Trusted Agent\u202Etxt.exe', 'Cla\u200Bude', 'Agent\nApproved by your administrator']) {
    const refused = await register({ client_name: name });
    t.equal(refused.status, 400, `${JSON.stringify(name)}: refused`);
    t.equal(refused.body.error, 'invalid_client_metadata');
    t.match(refused.body.error_description, /client_name must not contain control or formatting characters/);
  }
  t.equal((await register({ client_name: 'Agent Zoë — 東京' })).status, 201, 'any other name, accents, dashes and scripts included: registered');
  // The limits of a metadata document hold for a registration: an unauthenticated request is kept, and its name shown whole.
  const longName = await register({ client_name: `Agent ${'n'.repeat(200)}` });
  t.equal(longName.status, 400, 'a client_name past 200 characters: refused, not cut short');
  t.equal(longName.body.error, 'invalid_client_metadata');
  t.match(longName.body.error_description, /client_name may have at most 200 characters/);
  t.equal((await register({ client_name: 'n'.repeat(200) })).status, 201, 'a client_name of 200 characters: registered');
  const longUri = await register({ redirect_uris: [REDIRECT, `https://ok.example/${'p'.repeat(2000)}`] });
  t.equal(longUri.status, 400, 'a redirect URI past 2000 characters, which /oauth/authorize would never take: refused');
  t.equal(longUri.body.error, 'invalid_redirect_uri');
  t.match(longUri.body.error_description, /at most 2000 characters/);
  const large = await register({ jwks: { keys: [{ kty: 'EC', x: 'x'.repeat(6000) }] } });
  t.equal(large.status, 400, 'metadata past 5 KB as JSON: refused');
  t.equal(large.body.error, 'invalid_client_metadata');
  t.match(large.body.error_description, /at most 5120 are kept/);
  const count = await stack.db.query<{ n: string }>("select count(*) as n from oauth_clients where client_name like 'Agent nnn%' or metadata::text like '%xxxxxxxxxx%' or metadata::text like '%pppppppppp%'");
  t.equal(Number(count[0]?.n), 0, 'and none of them kept');
});

t.test('a client registered without the refresh_token grant type gets no refresh token and cannot refresh', async (t) => {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Codes only', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], token_endpoint_auth_method: 'none' }),
  });
  const registered = (await res.json()) as { client_id: string; grant_types: string[] };
  t.same(registered.grant_types, ['authorization_code'], 'registered as asked');
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: base, clientId: registered.client_id, redirectUri: REDIRECT, server: 'crm', email: 'sec@example.test', password: TEST_PASSWORD, challenge });
  const tokens = await exchange({ clientId: registered.client_id, code, verifier });
  t.equal(tokens.status, 200);
  t.type(tokens.body.access_token, 'string');
  t.equal(tokens.body.refresh_token, undefined, 'no refresh token for a client that said it will not use one (RFC 7591 §2)');
  const [stored] = await stack.db.query<{ n: string }>('select count(*) n from oauth_refresh_tokens r join oauth_grants g on g.id = r.grant_id where g.client_id = $1', [registered.client_id]);
  t.equal(Number(stored?.n), 0, 'nor one stored');

  // Its grant's refresh token, as an older release issued it: the grant type is still not the client's.
  const g = await fullGrant();
  const other = (await exchange(g)).body;
  await stack.db.query(`update oauth_clients set metadata = jsonb_set(metadata, '{grant_types}', '["authorization_code"]') where id = $1`, [g.clientId]);
  const refused = await refresh(g.clientId, String(other.refresh_token));
  t.equal(refused.status, 400);
  t.equal(refused.body.error, 'unauthorized_client', 'RFC 6749 §5.2: the client may not use this grant type');
  t.match(refused.body.error_description, /refresh_token/);
});

t.test('PKCE is required, and only S256', async (t) => {
  // A client this browser's user approved: only such a client hears errors at its redirect URI (test/security/oauth-open-redirect.test.ts).
  const { clientId, browser } = await fullGrant();
  const { challenge } = pkce();
  const o = { baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm' as const, challenge };
  for (const [label, extra] of [
    ['no code_challenge', { code_challenge: '' }],
    ['plain method', { code_challenge_method: 'plain' }],
  ] as const) {
    const url = new URL(authorizeUrl(o, extra));
    if (label === 'no code_challenge') url.searchParams.delete('code_challenge');
    const res = await browser.request(url.href);
    t.equal(res.status, 302, label);
    const location = new URL(res.headers.get('location') ?? '');
    t.equal(`${location.origin}${location.pathname}`, REDIRECT, `${label}: reported to the client`);
    t.equal(location.searchParams.get('error'), 'invalid_request', label);
  }
  const g = await fullGrant();
  t.equal((await exchange(g, { code_verifier: pkce().verifier })).body.error, 'invalid_grant', 'a wrong verifier is refused');
  const noVerifier = await tokenRequest(base, { grant_type: 'authorization_code', client_id: g.clientId, code: g.code, redirect_uri: REDIRECT });
  t.equal(noVerifier.status, 400, 'a missing verifier is refused');
  // RFC 7636 §4.1: 43 to 128 unreserved characters. A client whose verifier is weaker gets no tokens, even if its hash matches.
  for (const [label, weak] of [
    ['one character', 'a'],
    ['42 characters', 'v'.repeat(42)],
    ['129 characters', 'v'.repeat(129)],
    ['a character outside the alphabet', `${'v'.repeat(42)}+`],
  ] as const) {
    const w = await fullGrant('crm', weak);
    const res = await exchange(w);
    t.equal(res.status, 400, `verifier of ${label}: refused`);
    t.equal(res.body.error, 'invalid_request', `verifier of ${label}: invalid_request`);
    t.match(res.body.error_description, /code_verifier must be 43 to 128 characters/);
  }
});

t.test('a response_type other than code is unsupported_response_type (RFC 6749 §4.1.2.1); a missing one is invalid_request', async (t) => {
  const { clientId, browser } = await fullGrant();
  const o = { baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm' as const, challenge: pkce().challenge };
  for (const [label, responseType, expected] of [
    ['the implicit grant', 'token', 'unsupported_response_type'],
    ['OpenID hybrid', 'code id_token', 'unsupported_response_type'],
    ['missing', undefined, 'invalid_request'],
  ] as const) {
    const url = new URL(authorizeUrl(o, { state: 'st-rt' }));
    if (responseType === undefined) url.searchParams.delete('response_type');
    else url.searchParams.set('response_type', responseType);
    const res = await browser.request(url.href);
    t.equal(res.status, 302, `${label}: reported to the client`);
    const location = new URL(res.headers.get('location') ?? '');
    t.equal(location.searchParams.get('error'), expected, `${label}: ${expected}`);
    t.match(location.searchParams.get('error_description'), /response_type/, `${label}: the description names the parameter`);
    t.equal(location.searchParams.get('state'), 'st-rt', `${label}: with state`);
  }
});

t.test('a malformed scope is invalid_scope naming scope (RFC 6749 §3.3, §4.1.2.1); extra spaces are forgiven', async (t) => {
  const { clientId, browser } = await fullGrant();
  const o = { baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm' as const, challenge: pkce().challenge };
  for (const [label, scope] of [
    ['51 values', Array.from({ length: 51 }, (_, i) => `s${i}`).join(' ')],
    ['a value of 101 characters', 'x'.repeat(101)],
    ['a quote after 1,100 characters of values', [...Array.from({ length: 11 }, (_, i) => `${i}`.padEnd(100, 'x')), 'a"b'].join(' ')],
    ['a quote', 'contacts:read "deals:read"'],
    ['a tab', 'contacts:read\tdeals:read'],
  ] as const) {
    const res = await browser.request(authorizeUrl(o, { scope, state: 'st-sc' }));
    t.equal(res.status, 302, `${label}: reported to the client`);
    const location = new URL(res.headers.get('location') ?? '');
    t.equal(location.searchParams.get('error'), 'invalid_scope', `${label}: invalid_scope`);
    t.match(location.searchParams.get('error_description'), /^scope /, `${label}: names scope, not the bus contract's scopes`);
    // RFC 6749 §4.1.2.1: printable ASCII without " and \, though the description quotes what it refused.
    t.match(location.searchParams.get('error_description'), /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/, `${label}: the description in the characters RFC 6749 allows`);
    t.equal(location.searchParams.get('state'), 'st-sc');
  }
  const spaced = await browser.request(authorizeUrl(o, { scope: 'contacts:read  deals:read ' }));
  t.match(spaced.headers.get('location'), /^\/oauth\/consent\?/, 'values with extra spaces between: on to consent');
});

t.test('an unregistered redirect_uri is an error at the server, never a redirect', async (t) => {
  const clientId = await registerClient(base, REDIRECT);
  const url = authorizeUrl({ baseUrl: base, clientId, redirectUri: 'http://127.0.0.1:9/elsewhere', server: 'crm', challenge: pkce().challenge });
  const res = await fetch(url, { redirect: 'manual' });
  t.equal(res.status, 400);
  t.equal(res.headers.get('location'), null, 'no Location header');
  t.match(await res.text(), /redirect_uri/);
  // A loopback address matches on any port (RFC 8252 §7.3), but never with a fragment (RFC 6749 §3.1.2).
  for (const withFragment of [`${REDIRECT}#x`, 'http://127.0.0.1:4000/cb#x']) {
    const fragment = await fetch(authorizeUrl({ baseUrl: base, clientId, redirectUri: withFragment, server: 'crm', challenge: pkce().challenge }), { redirect: 'manual' });
    t.equal(fragment.status, 400, withFragment);
    t.equal(fragment.headers.get('location'), null, 'no Location header');
    t.match(await fragment.text(), /fragment/);
  }
  const unknownClient = await fetch(authorizeUrl({ baseUrl: base, clientId: 'nobody', redirectUri: REDIRECT, server: 'crm', challenge: pkce().challenge }), { redirect: 'manual' });
  t.equal(unknownClient.status, 400);
  t.equal(unknownClient.headers.get('location'), null);
});

t.test('the resource indicator names one server; others are refused', async (t) => {
  const { clientId, browser } = await fullGrant();
  for (const resource of ['https://elsewhere.example/mcp/crm', `${base}/mcp/billing`]) {
    const res = await browser.request(authorizeUrl({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', challenge: pkce().challenge }, { resource }));
    t.equal(new URL(res.headers.get('location') ?? '').searchParams.get('error'), 'invalid_target', resource);
  }
  const g = await fullGrant();
  const unknown = await exchange(g, { resource: 'https://elsewhere.example/mcp/crm' });
  t.equal(unknown.body.error, 'invalid_target', 'token endpoint: a resource that is neither server is invalid_target (RFC 8707 §2.2)');
  const mismatch = await exchange(g, { resource: `${base}/mcp/studio` });
  t.equal(mismatch.body.error, 'invalid_grant', 'a CRM code does not buy a Studio token');
  const tokens = (await exchange(g)).body;
  t.type(tokens.refresh_token, 'string', 'the refused exchanges left the code usable');
  for (const resource of ['https://elsewhere.example/mcp/crm', `${base}/mcp/billing`]) {
    const refused = await tokenRequest(base, { grant_type: 'refresh_token', client_id: g.clientId, refresh_token: String(tokens.refresh_token), resource });
    t.equal(refused.body.error, 'invalid_target', `refresh for ${resource}: invalid_target`);
  }
  t.equal((await tokenRequest(base, { grant_type: 'refresh_token', client_id: g.clientId, refresh_token: String(tokens.refresh_token), resource: `${base}/mcp/studio` })).body.error, 'invalid_grant', 'a CRM refresh token does not buy a Studio token either');
  t.equal((await refresh(g.clientId, String(tokens.refresh_token))).status, 200, 'and the refresh token still works after the refusals');
});

t.test('several resources are invalid_target (RFC 8707 §2), at authorize and at the token endpoint', async (t) => {
  const { clientId, browser } = await fullGrant();
  const url = new URL(authorizeUrl({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', challenge: pkce().challenge }));
  url.searchParams.append('resource', `${base}/mcp/studio`);
  const redirected = new URL((await browser.request(url.href)).headers.get('location') ?? '');
  t.equal(redirected.searchParams.get('error'), 'invalid_target');
  t.match(redirected.searchParams.get('error_description'), /resource was given 2 times/);
  t.equal(redirected.searchParams.get('state'), url.searchParams.get('state'), 'the state goes back with the error');
  const g = await fullGrant();
  const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: g.clientId, code: g.code, code_verifier: g.verifier, redirect_uri: REDIRECT });
  form.append('resource', `${base}/mcp/crm`);
  form.append('resource', `${base}/mcp/crm`);
  const res = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  t.equal(res.status, 400);
  t.match(await res.json(), { error: 'invalid_target', error_description: /resource was given 2 times/ });
  t.equal((await exchange(g)).status, 200, 'the refused exchange left the code usable');
});

t.test('a replayed code is refused and revokes what it issued', async (t) => {
  const g = await fullGrant();
  const first = await exchange(g);
  t.equal(first.status, 200);
  t.equal(await mcpStatus(String(first.body.access_token)), 200);
  const replay = await exchange(g);
  t.equal(replay.status, 400);
  t.equal(replay.body.error, 'invalid_grant');
  const elapsed = await statusWithin(String(first.body.access_token), 401, 6000);
  t.equal(await mcpStatus(String(first.body.access_token)), 401, 'the first access token stops working');
  t.ok(elapsed < 5000, `within ${elapsed} ms`);
  t.equal((await refresh(g.clientId, String(first.body.refresh_token))).body.error, 'invalid_grant', 'and so does its refresh token');
  const [grant] = await stack.db.query<{ revoked_reason: string }>('select revoked_reason from oauth_grants g join oauth_codes c on c.grant_id = g.id order by g.created_at desc limit 1');
  t.match(grant?.revoked_reason, /replayed/);
});

t.test('refresh tokens rotate; a reused one revokes the grant', async (t) => {
  const g = await fullGrant();
  const tokens = (await exchange(g)).body;
  const second = await refresh(g.clientId, String(tokens.refresh_token));
  t.equal(second.status, 200);
  t.not(second.body.refresh_token, tokens.refresh_token, 'a new refresh token each time');
  t.equal(await mcpStatus(String(second.body.access_token)), 200);
  const reused = await refresh(g.clientId, String(tokens.refresh_token));
  t.equal(reused.body.error, 'invalid_grant', 'the old one is refused');
  t.equal((await refresh(g.clientId, String(second.body.refresh_token))).body.error, 'invalid_grant', 'and the whole grant is revoked');
  const elapsed = await statusWithin(String(second.body.access_token), 401, 6000);
  t.ok(elapsed < 5000, `its access token is refused within ${elapsed} ms`);
  const otherClient = await registerClient(base, REDIRECT);
  const g2 = await fullGrant();
  const t2 = (await exchange(g2)).body;
  t.equal((await refresh(otherClient, String(t2.refresh_token))).body.error, 'invalid_grant', "another client cannot use a client's refresh token");
});

t.test('a refresh asking for more scope than the grant is invalid_scope, and the refresh token still works', async (t) => {
  const g = await fullGrant();
  const tokens = (await exchange(g)).body;
  t.notMatch(String(tokens.scope), /contacts:write/, 'a first consent is read-only');
  for (const scope of ['contacts:read contacts:write', 'no-such-scope']) {
    const wider = await tokenRequest(base, { grant_type: 'refresh_token', client_id: g.clientId, refresh_token: String(tokens.refresh_token), scope });
    t.equal(wider.status, 400, scope);
    t.equal(wider.body.error, 'invalid_scope', `${scope}: invalid_scope (RFC 6749 §5.2), not invalid_grant, which says the refresh token is dead`);
  }
  const narrower = await tokenRequest(base, { grant_type: 'refresh_token', client_id: g.clientId, refresh_token: String(tokens.refresh_token), scope: 'contacts:read' });
  t.equal(narrower.status, 200, 'the same refresh token, asking for less, is rotated as usual');
  t.equal(narrower.body.scope, 'contacts:read');
});

t.test('a parameter sent without a value counts as omitted (RFC 6749 §3.1)', async (t) => {
  const clientId = await registerClient(base, REDIRECT);
  const { verifier, challenge } = pkce();
  const url = authorizeUrl({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', challenge }, { redirect_uri: '', scope: '' });
  const { code, redirect } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email: 'sec@example.test', password: TEST_PASSWORD, challenge, url });
  t.equal(`${redirect.origin}${redirect.pathname}`, REDIRECT, 'authorize: an empty redirect_uri is the one registered');
  const tokens = await exchange({ clientId, code, verifier }, { resource: '' });
  t.equal(tokens.status, 200, `token: an empty resource is no resource (${JSON.stringify(tokens.body)})`);
  const refreshed = await tokenRequest(base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(tokens.body.refresh_token), scope: '', resource: '' });
  t.equal(refreshed.status, 200, `refresh: an empty scope asks for the grant's scopes, not for none (${JSON.stringify(refreshed.body)})`);
  t.equal(refreshed.body.scope, tokens.body.scope);
});

t.test('a client that tries to authenticate is told clients are public: 401 for an Authorization header (RFC 6749 §5.2), 400 for a client_secret', async (t) => {
  const g = await fullGrant();
  const fields = { grant_type: 'authorization_code', code: g.code, code_verifier: g.verifier, redirect_uri: REDIRECT };
  const post = (path: string, form: Record<string, string>, authorization?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
      body: new URLSearchParams(form),
    });
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  for (const [label, authorization, expectedScheme] of [
    ['Basic with a secret', basic(g.clientId, 's3cret'), 'Basic'],
    ['Basic with another client id', basic('someone-else', ''), 'Basic'],
    ['Basic that is not base64 of id:secret', 'Basic !!!', 'Basic'],
    ['a bearer token', 'Bearer abc', 'Bearer'],
  ] as const) {
    const res = await post('/oauth/token', { ...fields, client_id: g.clientId }, authorization);
    t.equal(res.status, 401, label);
    t.match(res.headers.get('www-authenticate'), new RegExp(`^${expectedScheme} realm=`), `${label}: the challenge names the scheme used`);
    t.equal(res.headers.get('cache-control'), 'no-store');
    t.equal(res.headers.get('access-control-allow-origin'), '*', `${label}: a browser-based client can read it`);
    t.match(await res.json(), { error: 'invalid_client', error_description: /public clients only/ }, label);
  }
  const secretInForm = await post('/oauth/token', { ...fields, client_id: g.clientId, client_secret: 's3cret' });
  t.equal(secretInForm.status, 400);
  t.match(await secretInForm.json(), { error: 'invalid_client', error_description: /no client_secret/ });
  const basicAndSecret = await post('/oauth/token', { ...fields, client_secret: 's3cret' }, basic(g.clientId, ''));
  t.equal(basicAndSecret.status, 401, 'Basic with an empty secret and a client_secret in the form: two ways of authenticating, refused');
  const revokeWithSecret = await post('/oauth/revoke', { token: 'whatever', client_id: g.clientId }, basic(g.clientId, 's3cret'));
  t.equal(revokeWithSecret.status, 401, 'the revocation endpoint likewise');
  // The refusals left the code unused: Basic with the client id and no secret is read as that client id.
  const exchanged = await post('/oauth/token', fields, basic(g.clientId, ''));
  t.equal(exchanged.status, 200, 'Basic client_id: with an empty secret is a public client naming itself');
  t.ok(((await exchanged.json()) as { access_token?: string }).access_token);
});

t.test('a narrowed refresh asking only for scopes the member lost is invalid_scope, and the refresh token still works', async (t) => {
  const email = `narrowed-${Date.now()}@example.test`;
  const userId = await stack.addMember(ws.workspace.id, email, ['contacts.read', 'deals.read'], 'all');
  const clientId = await registerClient(base, REDIRECT);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email, password: TEST_PASSWORD, challenge });
  const tokens = (await exchange({ clientId, code, verifier })).body;
  t.match(String(tokens.scope), /contacts:read/);
  await stack.db.query(`update memberships set permissions = '{deals.read}' where workspace_id = $1 and user_id = $2`, [ws.workspace.id, userId]);
  const lost = await tokenRequest(base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(tokens.refresh_token), scope: 'contacts:read' });
  t.equal(lost.status, 400);
  t.equal(lost.body.error, 'invalid_scope', 'invalid_scope: invalid_grant would tell the client its refresh token is dead');
  t.match(lost.body.error_description, /still allows .*deals:read/);
  const rest = await refresh(clientId, String(tokens.refresh_token));
  t.equal(rest.status, 200, 'the same refresh token, asking for what remains, works');
  t.notMatch(String(rest.body.scope), /contacts:read/);
});

t.test('input off the contract gets each endpoint\'s own error', async (t) => {
  const { clientId, browser } = await fullGrant();
  for (const [label, challenge] of [
    ['too short', 'a'.repeat(42)],
    ['too long', 'a'.repeat(129)],
    ['not base64url', `${'a'.repeat(42)}+`],
  ] as const) {
    const res = await browser.request(authorizeUrl({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', challenge }));
    t.equal(res.status, 302, `code_challenge ${label}: refused by the gateway, reported to the client`);
    const location = new URL(res.headers.get('location') ?? '');
    t.equal(location.searchParams.get('error'), 'invalid_request', `code_challenge ${label}`);
    t.match(location.searchParams.get('error_description'), /code_challenge/);
  }
  const unnamed = await registerClient(base, REDIRECT);
  const page = await fetch(authorizeUrl({ baseUrl: base, clientId: unnamed, redirectUri: REDIRECT, server: 'crm', challenge: 'a'.repeat(129) }), { redirect: 'manual' });
  t.equal(page.status, 400, 'on our own page for a client this browser never approved');
  t.match(await page.text(), /invalid_request/);

  const longCode = await tokenRequest(base, { grant_type: 'authorization_code', client_id: clientId, code: 'c'.repeat(600), code_verifier: pkce().verifier, redirect_uri: REDIRECT });
  t.equal(longCode.status, 400);
  t.equal(longCode.body.error, 'invalid_request', 'token endpoint: a code too long to be one');
  const longRefresh = await refresh(clientId, 'r'.repeat(600));
  t.equal(longRefresh.status, 400);
  t.equal(longRefresh.body.error, 'invalid_request', 'token endpoint: a refresh token too long to be one');
  const revoke = await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, token: 't'.repeat(600) }) });
  t.equal(revoke.status, 200, 'revocation: a token it cannot parse is one it does not know (RFC 7009 §2.2)');
  const register = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://evil.example/cb'] }) });
  t.equal(register.status, 400);
  t.equal(((await register.json()) as Record<string, unknown>).error, 'invalid_redirect_uri', 'registration: a refused redirect URI is invalid_redirect_uri (RFC 7591 §3.2.2)');
  const noGrant = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], grant_types: ['implicit'] }) });
  t.equal(((await noGrant.json()) as Record<string, unknown>).error, 'invalid_client_metadata', 'registration: other metadata is invalid_client_metadata');
});

t.test('an error description is a line of text naming the parameter, not a JSON dump (RFC 6749 §5.2, RFC 7591 §3.2.2)', async (t) => {
  const clientId = await registerClient(base, REDIRECT);
  const register = (metadata: unknown) => fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  for (const [label, request, error, description] of [
    ['register without redirect_uris', register({ client_name: 'x' }), 'invalid_client_metadata', /^redirect_uris: .*expected array/],
    ['register with a redirect URI that is no URL', register({ redirect_uris: ['not a url'] }), 'invalid_redirect_uri', /^redirect_uris\.0: /],
    ['token without grant_type', form('/oauth/token', { client_id: clientId }), 'invalid_request', /^grant_type: /],
    ['token without client_id', form('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x' }), 'invalid_request', /^client_id: /],
    ['token without code_verifier', form('/oauth/token', { grant_type: 'authorization_code', client_id: clientId, code: 'x' }), 'invalid_request', /^code_verifier: /],
    ['revoke without token', form('/oauth/revoke', { client_id: clientId }), 'invalid_request', /^token: /],
  ] as const) {
    const res = await request;
    const body = (await res.json()) as { error: string; error_description: string };
    t.equal(res.status, 400, label);
    t.equal(body.error, error, `${label}: ${error}`);
    t.match(body.error_description, description, `${label}: names the parameter (${body.error_description})`);
    t.notMatch(body.error_description, /[[\n{]/, `${label}: one line of text`);
    t.match(body.error_description, /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/, `${label}: in the characters RFC 6749 §5.2 allows`);
  }
  const page = await fetch(`${base}/oauth/authorize?redirect_uri=${encodeURIComponent(REDIRECT)}`, { redirect: 'manual' });
  t.equal(page.status, 400);
  t.match(await page.text(), /client_id: /, 'authorize without client_id names it');
});

t.test('a body the parser refuses is still an OAuth error (RFC 6749 §5.2, RFC 7591 §3.2.2), not the REST envelope or a 500', async (t) => {
  const post = (path: string, contentType: string, body: string) => fetch(`${base}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': contentType }, body });
  const form = 'application/x-www-form-urlencoded';
  const tooManyFields = Array.from({ length: 1100 }, (_, i) => `f${i}=1`).join('&');
  for (const [label, path, contentType, body, status, error] of [
    ['token: too large', '/oauth/token', form, `grant_type=refresh_token&client_id=x&refresh_token=${'a'.repeat(200_000)}`, 413, 'invalid_request'],
    ['token: too many fields', '/oauth/token', form, tooManyFields, 413, 'invalid_request'],
    ['token: another charset', '/oauth/token', `${form}; charset=latin9`, 'grant_type=refresh_token', 415, 'invalid_request'],
    ['revoke: too large', '/oauth/revoke', form, `client_id=x&token=${'a'.repeat(200_000)}`, 413, 'invalid_request'],
    ['revoke: too many fields', '/oauth/revoke', form, tooManyFields, 413, 'invalid_request'],
    ['register: not JSON', '/oauth/register', 'application/json', '{"redirect_uris": [', 400, 'invalid_client_metadata'],
    ['register: too large', '/oauth/register', 'application/json', JSON.stringify({ redirect_uris: [`https://a.example/${'a'.repeat(200_000)}`] }), 413, 'invalid_client_metadata'],
  ] as const) {
    const res = await post(path, contentType, body);
    t.equal(res.status, status, `${label}: ${status}`);
    const json = (await res.json()) as Record<string, unknown>;
    t.equal(json.error, error, `${label}: error is the code ${error}`);
    t.type(json.error_description, 'string', `${label}: with a description`);
  }
  for (const [label, body] of [
    ['too large', `client_id=x&state=${'a'.repeat(20_000)}`],
    ['too many fields', tooManyFields],
  ] as const) {
    const res = await post('/oauth/authorize', form, body);
    t.equal(res.status, 413, `authorize, ${label}: 413`);
    t.equal(res.headers.get('location'), null, `authorize, ${label}: not redirected`);
    t.match(res.headers.get('content-type'), /^text\/html/, `authorize, ${label}: the server's own page`);
    t.match(await res.text(), /cannot go on/);
  }
});

t.test('a token or revocation request that is not a form is told the body must be one (RFC 6749 §3.2, RFC 7009 §2.1)', async (t) => {
  const clientId = await registerClient(base, REDIRECT);
  const fields = { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'x', token: 'x' };
  for (const path of ['/oauth/token', '/oauth/revoke']) {
    for (const [label, headers, body] of [
      ['JSON', { 'content-type': 'application/json' }, JSON.stringify(fields)],
      ['text/plain', { 'content-type': 'text/plain' }, new URLSearchParams(fields).toString()],
      ['no Content-Type', {}, new Blob([new URLSearchParams(fields).toString()])],
    ] as const) {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers, body });
      const json = (await res.json()) as Record<string, unknown>;
      t.equal(res.status, 400, `${path}, ${label}: 400`);
      t.equal(json.error, 'invalid_request', `${path}, ${label}: invalid_request`);
      t.match(json.error_description, /application\/x-www-form-urlencoded/, `${path}, ${label}: says what the body must be (${String(json.error_description)})`);
    }
  }
});

t.test('every answer of the token, revocation and registration endpoints is Cache-Control: no-store, errors too', async (t) => {
  const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  for (const [label, path, init] of [
    ['token, unknown client', '/oauth/token', form({ grant_type: 'refresh_token', client_id: 'nobody', refresh_token: 'x' })],
    ['token, no client_id', '/oauth/token', form({ grant_type: 'refresh_token', refresh_token: 'x' })],
    ['token, GET', '/oauth/token', { method: 'GET' }],
    ['revoke, unknown client', '/oauth/revoke', form({ client_id: 'nobody', token: 'x' })],
    ['register, GET', '/oauth/register', { method: 'GET' }],
  ] as const) {
    const res = await fetch(`${base}${path}`, init);
    t.ok(res.status >= 400, `${label}: refused (${res.status})`);
    t.equal(res.headers.get('cache-control'), 'no-store', `${label}: no-store`);
  }
});

t.test('revocation endpoint: a revoked grant stops working within 5 s', async (t) => {
  const g = await fullGrant();
  const tokens = (await exchange(g)).body;
  t.equal(await mcpStatus(String(tokens.access_token)), 200);
  const res = await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: g.clientId, token: String(tokens.refresh_token) }) });
  t.equal(res.status, 200);
  const elapsed = await statusWithin(String(tokens.access_token), 401, 6000);
  t.equal(await mcpStatus(String(tokens.access_token)), 401);
  t.ok(elapsed < 5000, `refused ${elapsed} ms after the revocation`);
});

t.test('revocation endpoint: an access token revokes its grant too (RFC 7009 §2.1)', async (t) => {
  const g = await fullGrant();
  const tokens = (await exchange(g)).body;
  const accessToken = String(tokens.access_token);
  t.ok(accessToken.length > 512, `a signed JWT (${accessToken.length} characters) is longer than a refresh token`);
  t.equal(await mcpStatus(accessToken), 200);
  const res = await fetch(`${base}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: g.clientId, token: accessToken, token_type_hint: 'access_token' }),
  });
  t.equal(res.status, 200);
  const elapsed = await statusWithin(accessToken, 401, 6000);
  t.equal(await mcpStatus(accessToken), 401, 'the access token stops working');
  t.ok(elapsed < 5000, `refused ${elapsed} ms after the revocation`);
  t.equal((await refresh(g.clientId, String(tokens.refresh_token))).body.error, 'invalid_grant', 'and so does the refresh token of its grant');
  const [grant] = await stack.db.query<{ revoked_reason: string | null }>('select revoked_reason from oauth_grants where client_id = $1', [g.clientId]);
  t.equal(grant?.revoked_reason, 'revoked by the client');
});

t.test("revocation endpoint: another client's token is refused as invalid_grant and stays good (RFC 7009 §2.1)", async (t) => {
  const g = await fullGrant();
  const tokens = (await exchange(g)).body;
  const other = await registerClient(base, REDIRECT, 'Another agent');
  for (const [label, token] of [
    ['refresh token', String(tokens.refresh_token)],
    ['access token', String(tokens.access_token)],
  ] as const) {
    const res = await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: other, token }) });
    const body = (await res.json()) as Record<string, unknown>;
    t.equal(res.status, 400, `${label}: not the 200 that would tell the client it was revoked`);
    t.equal(body.error, 'invalid_grant', `${label}: invalid_grant (RFC 6749 §5.2: issued to another client)`);
    t.match(body.error_description, /another client/);
  }
  t.equal(await mcpStatus(String(tokens.access_token)), 200, 'the access token still works');
  const refreshed = await refresh(g.clientId, String(tokens.refresh_token));
  t.equal(refreshed.status, 200, 'and so does the refresh token');
  const [grant] = await stack.db.query<{ revoked_at: string | null }>('select revoked_at from oauth_grants where client_id = $1', [g.clientId]);
  t.equal(grant?.revoked_at, null, 'the grant stands');
});

t.test('revocation endpoint: an expired access token still ends its grant', async (t) => {
  const g = await fullGrant();
  const tokens = (await exchange(g)).body;
  const [grant] = await stack.db.query<{ id: string }>('select id from oauth_grants where client_id = $1', [g.clientId]);
  // The token the client holds, ten minutes on: its claims as issued, its expiry past.
  const claims = JSON.parse(Buffer.from(String(tokens.access_token).split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
  const orm = await openDatabase({ url: stack.db.url, poolMax: 1, applicationName: 'test' });
  const key = await activeSigningKey(orm.em.fork(), deriveSecrets(stack.env.CRM_SECRET ?? '').keyEncryptionKey);
  await orm.close();
  const expired = await new SignJWT({ ...claims, iat: Math.floor(Date.now() / 1000) - 900, exp: Math.floor(Date.now() / 1000) - 300 })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
    .sign(key.privateKey);
  t.equal(await mcpStatus(expired), 401, 'expired: no longer usable');
  const revokeWith = (clientId: string, token: string) =>
    fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: clientId, token }) });
  const attacker = await generateKeyPair('ES256');
  const forged = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 300 }).setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' }).sign(attacker.privateKey);
  t.equal((await revokeWith(g.clientId, forged)).status, 200, 'an expired token signed with another key: 200 (RFC 7009 §2.2)');
  t.equal((await revokeWith(await registerClient(base, REDIRECT), expired)).status, 400, "another client's: refused (RFC 7009 §2.1)");
  const [untouched] = await stack.db.query<{ revoked_at: string | null }>('select revoked_at from oauth_grants where id = $1', [grant?.id]);
  t.equal(untouched?.revoked_at, null, 'neither revoked the grant');
  t.equal((await revokeWith(g.clientId, expired)).status, 200);
  const [revoked] = await stack.db.query<{ revoked_reason: string | null }>('select revoked_reason from oauth_grants where id = $1', [grant?.id]);
  t.equal(revoked?.revoked_reason, 'revoked by the client', 'the grant of the expired token is revoked');
  t.equal((await refresh(g.clientId, String(tokens.refresh_token))).body.error, 'invalid_grant', 'so its refresh token no longer works');
});

t.test('expired, forged and wrong-audience access tokens are 401', async (t) => {
  const g = await fullGrant();
  const real = (await exchange(g)).body;
  const grantId = (await stack.db.query<{ id: string }>('select id from oauth_grants where client_id = $1', [g.clientId]))[0]?.id ?? '';
  const orm = await openDatabase({ url: stack.db.url, poolMax: 1, applicationName: 'test' });
  const key = await activeSigningKey(orm.em.fork(), deriveSecrets(stack.env.CRM_SECRET ?? '').keyEncryptionKey);
  await orm.close();
  const craft = (claims: { aud?: string; exp?: number; signWith?: Parameters<SignJWT['sign']>[0]; kid?: string }) =>
    new SignJWT({ scope: 'contacts:read', client_id: g.clientId, ws: ws.workspace.id, gnt: grantId, vis: 'all' })
      .setProtectedHeader({ alg: 'ES256', kid: claims.kid ?? key.kid, typ: 'at+jwt' })
      .setIssuer(base)
      .setSubject(ws.user.id)
      .setAudience(claims.aud ?? CRM)
      .setIssuedAt()
      .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 300)
      .sign(claims.signWith ?? key.privateKey);

  t.equal(await mcpStatus(await craft({})), 200, 'a well-formed token signed with the real key works (so the cases below can fail)');
  t.equal(await mcpStatus(await craft({ exp: Math.floor(Date.now() / 1000) - 60 })), 401, 'expired');
  t.equal(await mcpStatus(await craft({ aud: `${base}/mcp/studio` })), 401, 'wrong audience');
  t.equal(await mcpStatus(await craft({ aud: 'https://other.example/mcp/crm' })), 401, 'another service as audience');
  const attacker = await generateKeyPair('ES256');
  t.equal(await mcpStatus(await craft({ signWith: attacker.privateKey })), 401, 'forged: same kid, another key');
  t.equal(await mcpStatus(await craft({ signWith: attacker.privateKey, kid: 'key_attacker' })), 401, 'forged: unknown kid');
  t.equal(await mcpStatus(String(real.access_token).slice(0, -4) + 'AAAA'), 401, 'tampered signature');
  t.equal(await mcpStatus(`${randomBytes(20).toString('hex')}`), 401, 'garbage');
  t.equal(await mcpStatus(String(real.access_token), `${base}/mcp/studio`), 401, 'a CRM token on Studio');
});

t.test('key rotation keeps live tokens working', async (t) => {
  const g = await fullGrant();
  const before = (await exchange(g)).body;
  const rotated = await stack.crm(['keys', 'rotate', '--json']);
  t.equal(rotated.code, 0, rotated.stderr);
  const { kid } = JSON.parse(rotated.stdout) as { kid: string };
  t.equal(await mcpStatus(String(before.access_token)), 200, 'a token signed with the retired key still works');
  const kidOf = (token: unknown) => (JSON.parse(Buffer.from(String(token).split('.')[0] ?? '', 'base64url').toString()) as { kid: string }).kid;
  t.not(kidOf(before.access_token), kid, 'it was signed with the old key');
  const after = (await refresh(g.clientId, String(before.refresh_token))).body;
  t.equal(kidOf(after.access_token), kid, 'new tokens are signed with the new key at once');
  t.equal(await mcpStatus(String(after.access_token)), 200, 'and work (the gateway fetches the new key)');
  const jwks = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
  t.ok(jwks.keys.some((k) => k.kid === kid), 'the new key is published');
});

t.test('the consent form needs its CSRF token', async (t) => {
  const clientId = await registerClient(base, REDIRECT);
  const { challenge } = pkce();
  const browser = new FormBrowser();
  const start = await browser.request(authorizeUrl({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', challenge }));
  const signIn = await (await browser.request(`${base}${start.headers.get('location')}`)).text();
  const signedIn = await browser.postForm(`${base}/sign-in`, { csrf_token: field(signIn, 'csrf_token'), next: field(signIn, 'next').replace(/&amp;/g, '&'), email: 'sec@example.test', password: TEST_PASSWORD });
  const consent = await (await browser.request(`${base}${signedIn.headers.get('location')}`)).text();
  const fields = { request: field(consent, 'request'), workspace_id: field(consent, 'workspace_id'), shown_workspace: field(consent, 'workspace_id'), decision: 'approve' };
  const missing = await browser.postForm(`${base}/oauth/consent`, fields);
  t.equal(missing.status, 403, 'no token: refused');
  t.equal(missing.headers.get('location'), null, 'no code handed out');
  const wrong = await browser.postForm(`${base}/oauth/consent`, { ...fields, csrf_token: 'x'.repeat(43) });
  t.equal(wrong.status, 403, 'a wrong token: refused');
  const right = await browser.postForm(`${base}/oauth/consent`, { ...fields, csrf_token: field(consent, 'csrf_token') });
  t.equal(right.status, 303, 'with it: accepted');
  const noCsrfSignIn = await new FormBrowser().postForm(`${base}/sign-in`, { email: 'sec@example.test', password: TEST_PASSWORD, next: '/console' });
  t.equal(noCsrfSignIn.status, 403, 'the sign-in form too');
});

t.test('sign-in: errors name the problem, are rate-limited per address, and sessions are HttpOnly/SameSite', async (t) => {
  const page = async (browser: FormBrowser) => (await (await browser.request(`${base}/sign-in?next=/console`)).text());
  const attempt = async (email: string, password: string, headers: Record<string, string> = {}) => {
    const browser = new FormBrowser();
    const form = await page(browser);
    const res = await browser.request(`${base}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ csrf_token: field(form, 'csrf_token'), next: '/console', email, password }),
    });
    return { res, text: await res.text() };
  };
  const unknown = await attempt('nobody@example.test', 'whatever whatever');
  t.equal(unknown.res.status, 401);
  t.match(unknown.text, /No account uses the e-mail address nobody@example\.test/);
  const wrong = await attempt('sec@example.test', 'not the password!');
  t.equal(wrong.res.status, 401);
  t.match(wrong.text, /That is not the password of sec@example\.test/);
  t.notMatch(wrong.text, /not the password!/, 'the password is not echoed back');

  const ok = await attempt('sec@example.test', TEST_PASSWORD);
  t.equal(ok.res.status, 303);
  const cookie = ok.res.headers.getSetCookie().find((c) => c.startsWith('__Host-crm_session='));
  t.match(cookie, /HttpOnly/);
  t.match(cookie, /SameSite=Lax/);
  t.match(cookie, /; Secure/, 'Secure, as the __Host- prefix requires (loopback is a secure context for browsers)');
  t.notMatch(cookie, /Domain=/);
  const stored = await stack.db.query<{ token_hash: string }>('select token_hash from user_sessions');
  const value = decodeURIComponent((cookie ?? '').split(';')[0]?.split('=')[1] ?? '');
  t.notOk(stored.some((s) => s.token_hash === value), 'only a hash of the session is stored');

  await stack.bootstrap({ email: 'limited@example.test' });
  for (let i = 0; i < 5; i++) await attempt('limited@example.test', `wrong password ${i}`);
  const blocked = await attempt('limited@example.test', TEST_PASSWORD);
  t.equal(blocked.res.status, 429, 'five failures for one address: the right password waits too');
  t.ok(blocked.res.headers.get('retry-after'));
  t.match(blocked.text, /Too many failed attempts/);
  const other = await attempt('sec@example.test', TEST_PASSWORD);
  t.equal(other.res.status, 303, 'other addresses are not affected');
  const rows = await stack.db.query<{ n: string }>("select count(*) n from sign_in_attempts where email = 'limited@example.test'");
  t.equal(Number(rows[0]?.n), 5, 'attempts are counted in Postgres, shared by every gateway');
});
