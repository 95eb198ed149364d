import t from 'tap';
import { authorizeWithForms, field, FormBrowser, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { CrmProcess } from '../helpers/process.js';
import { startStack, TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Rate limits per API token, per OAuth grant and per IP for sign-in, counted in NATS
 * JetStream and shared by two gateway processes.
 */
const TOKEN_LIMIT = 30;
const GRANT_LIMIT = 12;
const SIGN_IN_LIMIT = 3;
const REGISTRATION_LIMIT = 4;
const OAUTH_LIMIT = 8;
const REDIRECT = 'http://127.0.0.1:9/cb';

const stack = await startStack({
  env: {
    RATE_LIMIT_TOKEN_PER_MINUTE: String(TOKEN_LIMIT),
    RATE_LIMIT_GRANT_PER_MINUTE: String(GRANT_LIMIT),
    RATE_LIMIT_SIGN_IN_PER_MINUTE: String(SIGN_IN_LIMIT),
    OAUTH_REGISTRATIONS_PER_HOUR: String(REGISTRATION_LIMIT),
    RATE_LIMIT_OAUTH_PER_MINUTE: String(OAUTH_LIMIT),
  },
});
// Replicas behind one load balancer share one public URL (tokens name it as their audience).
const second = new CrmProcess('gateway 2', ['gateway'], { ...stack.envFor('gateway'), PUBLIC_URL: stack.baseUrl });
t.teardown(async () => {
  await second.stop();
  await stack.stop();
});
const [, secondPort] = await second.waitFor(/"port":(\d+)/);
const gateways = [stack.baseUrl, `http://127.0.0.1:${secondPort}`];
const admin = 'limits@example.test';
const ws = await stack.bootstrap({ email: admin });

/** Limits count per clock minute: start a scenario early in one, so that it ends in the same one. */
async function freshWindow(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 35_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
}

const me = (base: string, token: string) => fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${token}` } });

t.test('an API token gets exactly its limit per minute across two gateways, then 429 with Retry-After', async (t) => {
  const token = await stack.token(ws.workspace.id, ['contacts:read']);
  const other = await stack.token(ws.workspace.id, ['contacts:read']);
  await freshWindow();

  const statuses: number[] = [];
  const remaining: number[] = [];
  let refused: Response | undefined;
  for (let i = 0; i < TOKEN_LIMIT + 10; i++) {
    const res = await me(gateways[i % 2] ?? '', token);
    statuses.push(res.status);
    if (res.status === 200) remaining.push(Number(res.headers.get('ratelimit-remaining')));
    else refused ??= res;
    t.equal(res.headers.get('ratelimit-limit'), String(TOKEN_LIMIT), 'RateLimit-Limit on every answer');
  }
  t.equal(statuses.filter((s) => s === 200).length, TOKEN_LIMIT, 'exactly the limit succeeds, though two gateways served it');
  t.equal(statuses.filter((s) => s === 429).length, 10, 'the rest are 429s');
  t.same(statuses.slice(0, TOKEN_LIMIT), Array(TOKEN_LIMIT).fill(200), 'refusals start only once the limit is used');
  t.same(remaining, Array.from({ length: TOKEN_LIMIT }, (_, i) => TOKEN_LIMIT - 1 - i), 'RateLimit-Remaining counts down across both gateways');

  const body = (await refused?.json()) as { error: { code: string; type: string } };
  t.equal(body.error.code, 'rate_limited');
  const retryAfter = Number(refused?.headers.get('retry-after'));
  t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After is the rest of the minute (${retryAfter} s)`);
  t.equal(refused?.headers.get('ratelimit-remaining'), '0');
  t.equal(refused?.headers.get('ratelimit-reset'), String(retryAfter));

  const otherRes = await me(stack.baseUrl, other);
  t.equal(otherRes.status, 200, 'another token of the same workspace has its own count');
});

t.test('an OAuth grant is limited on the tool servers', async (t) => {
  const clientId = await registerClient(stack.baseUrl, REDIRECT);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: stack.baseUrl, clientId, redirectUri: REDIRECT, server: 'crm', email: admin, password: TEST_PASSWORD, challenge });
  const tokens = await tokenRequest(stack.baseUrl, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT });
  const accessToken = String(tokens.body.access_token);
  await freshWindow();

  const statuses: number[] = [];
  for (let i = 0; i < GRANT_LIMIT + 3; i++) {
    const res = await fetch(`${gateways[i % 2] ?? ''}/mcp/crm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }),
    });
    statuses.push(res.status);
    if (res.status === 429) t.ok(res.headers.get('retry-after'), 'a refused tool call says when to retry');
  }
  t.same(statuses, [...Array(GRANT_LIMIT).fill(200), 429, 429, 429]);
});

t.test('sign-in attempts are limited per IP address', async (t) => {
  await freshWindow();
  // The OAuth scenario above used one attempt of this minute's, unless the minute turned since.
  const browser = new FormBrowser();
  const statuses: number[] = [];
  for (let i = 0; i < SIGN_IN_LIMIT + 2; i++) {
    const page = await (await browser.request(`${stack.baseUrl}/sign-in`)).text();
    const res = await browser.postForm(`${gateways[i % 2] ?? ''}/sign-in`, {
      csrf_token: field(page, 'csrf_token'),
      next: '/console',
      email: `nobody-${i}@example.test`,
      password: 'not the password',
    });
    statuses.push(res.status);
    if (res.status === 429) {
      t.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After on the refused sign-in');
      t.match(await res.text(), /Too many requests/, 'a page says why');
    }
  }
  const refusedFrom = statuses.indexOf(429);
  t.ok(refusedFrom > 0 && refusedFrom <= SIGN_IN_LIMIT, `attempts beyond the limit are refused: ${statuses.join(' ')}`);
  t.ok(statuses.slice(refusedFrom).every((s) => s === 429), 'and stay refused for the minute');
  t.ok(statuses.slice(0, refusedFrom).every((s) => s !== 429 && s < 500), 'earlier attempts got the ordinary answer');
});

t.test('dynamic client registrations are limited per IP and hour', async (t) => {
  // The grant test above registered one client through this gateway.
  for (let i = 1; i < REGISTRATION_LIMIT; i++) await registerClient(stack.baseUrl, REDIRECT, `Agent ${i}`);
  const refused = await fetch(`${stack.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'One too many', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  t.equal(refused.status, 429);
  t.match(await refused.json(), { error: 'too_many_requests' });
});

t.test('the token endpoint is limited per IP address, each OAuth endpoint on its own', async (t) => {
  // The second gateway: its own counts (these limits are kept per gateway), untouched by the
  // registrations and the code exchange of the scenarios above.
  const base = gateways[1] ?? '';
  const clientId = await registerClient(base, REDIRECT, 'Token limit');
  const exchange = () =>
    fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code: 'not-a-code', code_verifier: 'v'.repeat(43), redirect_uri: REDIRECT }),
    });
  const statuses: number[] = [];
  let refusal: unknown;
  for (let i = 0; i < OAUTH_LIMIT + 2; i++) {
    const res = await exchange();
    statuses.push(res.status);
    if (res.status === 429) refusal = await res.json();
    else await res.body?.cancel();
  }
  const refusedFrom = statuses.indexOf(429);
  t.equal(refusedFrom, OAUTH_LIMIT, `requests beyond the limit are refused: ${statuses.join(' ')}`);
  t.ok(statuses.slice(0, refusedFrom).every((s) => s === 400), 'earlier ones got the OAuth answer (invalid_grant)');
  t.match(refusal, { error: 'too_many_requests' }, 'an OAuth error body');
  const revoked = await fetch(`${base}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, token: 'not-a-token' }),
  });
  t.equal(revoked.status, 200, 'revocation counts on its own');
});
