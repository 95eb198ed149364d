import t from 'tap';
import { GRANT_MAX_LIFETIME_DAYS } from '../../workers/tokens/oauth/issue-tokens.js';
import { authorizeWithForms, field, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Before, every refresh issued a refresh token good for 30 more days, so a grant (or a
 * stolen refresh token that kept rotating) lived forever; and authorization responses did
 * not say which server issued them (RFC 9207), which leaves clients open to mix-up attacks.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const REDIRECT = 'http://127.0.0.1:9/cb';
const DAY_MS = 86_400_000;
const { user } = await stack.bootstrap({ email: `lifetime-${Date.now()}@example.test` });

async function connect() {
  const clientId = await registerClient(base, REDIRECT);
  const { verifier, challenge } = pkce();
  const { code, redirect, browser } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email: user.email, password: TEST_PASSWORD, challenge });
  const tokens = await tokenRequest(base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT });
  const grantId = (await stack.db.query<{ id: string }>('select id from oauth_grants where client_id = $1', [clientId]))[0]?.id ?? '';
  return { clientId, grantId, redirect, browser, refreshToken: String(tokens.body.refresh_token) };
}

const refresh = (clientId: string, refreshToken: string) => tokenRequest(base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
const ageGrant = (grantId: string, days: number) => stack.db.query(`update oauth_grants set created_at = now() - interval '${days} days' where id = $1`, [grantId]);
const latestRefreshExpiry = async (grantId: string) =>
  new Date((await stack.db.query<{ expires_at: Date }>('select expires_at from oauth_refresh_tokens where grant_id = $1 order by created_at desc limit 1', [grantId]))[0]?.expires_at ?? 0);

t.test(`rotation never carries a grant past ${GRANT_MAX_LIFETIME_DAYS} days`, async (t) => {
  const g = await connect();
  t.ok(Math.abs((await latestRefreshExpiry(g.grantId)).getTime() - (Date.now() + 30 * DAY_MS)) < 60_000, 'a fresh grant: 30 days, as before');

  // Almost at the end of its lifetime, a refresh still works, but the new token ends with the grant.
  await ageGrant(g.grantId, GRANT_MAX_LIFETIME_DAYS - 1);
  const rotated = await refresh(g.clientId, g.refreshToken);
  t.equal(rotated.status, 200);
  const expiry = await latestRefreshExpiry(g.grantId);
  t.ok(expiry.getTime() < Date.now() + DAY_MS + 60_000, `the rotated token expires with the grant (${expiry.toISOString()}), not 30 days on`);

  // Past it, even an unexpired refresh token is refused.
  await ageGrant(g.grantId, GRANT_MAX_LIFETIME_DAYS + 1);
  const refused = await refresh(g.clientId, String(rotated.body.refresh_token));
  t.equal(refused.status, 400);
  t.equal(refused.body.error, 'invalid_grant');
  t.match(refused.body.error_description, /maximum lifetime/);
  t.ok((await latestRefreshExpiry(g.grantId)).getTime() > Date.now(), 'though that refresh token had not expired');
});

t.test('authorization responses name their issuer (RFC 9207)', async (t) => {
  const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  t.equal(metadata.authorization_response_iss_parameter_supported, true, 'announced in the metadata');
  t.equal(metadata.issuer, base);

  const g = await connect();
  t.equal(g.redirect.searchParams.get('iss'), base, 'on the code redirect');
  t.ok(g.redirect.searchParams.get('state'), 'beside state');

  // A denial is an error response at the client's redirect URI: it names the issuer too.
  const start = await g.browser.request(
    `${base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: g.clientId, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 'deny-1', resource: `${base}/mcp/crm` })}`,
  );
  const consent = await (await g.browser.request(`${base}${start.headers.get('location')}`)).text();
  const denied = await g.browser.postForm(`${base}/oauth/consent`, { csrf_token: field(consent, 'csrf_token'), request: field(consent, 'request'), decision: 'deny' });
  const location = new URL(denied.headers.get('location') ?? '');
  t.equal(location.searchParams.get('error'), 'access_denied');
  t.equal(location.searchParams.get('state'), 'deny-1');
  t.equal(location.searchParams.get('iss'), base, 'on the error redirect');
});
