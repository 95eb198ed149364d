import t from 'tap';
import { authorizeUrl, authorizeWithForms, field, FormBrowser, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * "Allow changes" (write scopes) is for a client the user connected read-only before.
 * Before, any client's first consent offered it once the user had granted any other
 * client: a new, unknown agent could get writes on its first connection.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const { user, workspace } = await stack.bootstrap({ email: `allow-changes-${Date.now()}@example.test` });
const browser = new FormBrowser();

/** The consent page for a client's authorization, in the signed-in browser. */
async function consentFor(clientId: string, redirectUri: string): Promise<string> {
  const start = await browser.request(authorizeUrl({ baseUrl: base, clientId, redirectUri, server: 'crm', challenge: pkce().challenge }));
  return (await browser.request(`${base}${start.headers.get('location')}`)).text();
}
const offersChanges = (consentHtml: string) => /name="allow_changes"/.test(consentHtml);
const grantScopes = async (clientId: string) =>
  (await stack.db.query<{ scopes: string[] }>('select scopes from oauth_grants where workspace_id = $1 and client_id = $2', [workspace.id, clientId])).map((r) => r.scopes);

const TRUSTED_REDIRECT = 'http://127.0.0.1:9/trusted';
const trusted = await registerClient(base, TRUSTED_REDIRECT, 'Trusted agent');
await authorizeWithForms({ baseUrl: base, clientId: trusted, redirectUri: TRUSTED_REDIRECT, server: 'crm', email: user.email, password: TEST_PASSWORD, challenge: pkce().challenge, browser });

t.test("another client's first consent does not offer changes, and a forged checkbox gets none", async (t) => {
  const stranger = await registerClient(base, 'http://127.0.0.1:9/stranger', 'Stranger agent');
  const consent = await consentFor(stranger, 'http://127.0.0.1:9/stranger');
  t.match(consent, /Stranger agent/);
  t.notOk(offersChanges(consent), 'not offered (before: offered, because the user granted Trusted agent)');

  const decided = await browser.postForm(`${base}/oauth/consent`, {
    csrf_token: field(consent, 'csrf_token'),
    request: field(consent, 'request'),
    workspace_id: workspace.id,
    shown_workspace: workspace.id,
    decision: 'approve',
    allow_changes: workspace.id,
  });
  t.equal(decided.status, 303);
  const [scopes] = await grantScopes(stranger);
  t.ok(scopes && scopes.length > 0, 'the grant was made');
  t.notOk(scopes?.some((s) => s.endsWith(':write')), `read-only: ${scopes?.join(' ')}`);
});

t.test('the same client, or the same agent registered again, is offered changes', async (t) => {
  t.ok(offersChanges(await consentFor(trusted, TRUSTED_REDIRECT)), 'the client that was granted before');
  const again = await registerClient(base, TRUSTED_REDIRECT, 'Trusted agent');
  t.ok(offersChanges(await consentFor(again, TRUSTED_REDIRECT)), 'removed and added again: same name, same redirect URIs');
  const lookalike = await registerClient(base, 'http://127.0.0.1:9/elsewhere', 'Trusted agent');
  t.notOk(offersChanges(await consentFor(lookalike, 'http://127.0.0.1:9/elsewhere')), 'the same name with another redirect URI is another client');
});

t.test('a grant revoked because its code or refresh token was stolen does not offer changes', async (t) => {
  /** A grant to a new client, then its code or refresh token presented a second time, as a thief would. */
  async function stolen(name: string, redirectUri: string, replay: 'code' | 'refresh token'): Promise<string> {
    const clientId = await registerClient(base, redirectUri, name);
    const { verifier, challenge } = pkce();
    const { code } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri, server: 'crm', email: user.email, password: TEST_PASSWORD, challenge, browser });
    const exchange = () => tokenRequest(base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: redirectUri });
    const tokens = (await exchange()).body;
    if (replay === 'code') await exchange();
    else for (let i = 0; i < 2; i++) await tokenRequest(base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(tokens.refresh_token) });
    return clientId;
  }
  const cases = [
    ['Replayed-code agent', 'http://127.0.0.1:9/replayed', 'code', 'authorization code replayed'],
    ['Reused-refresh agent', 'http://127.0.0.1:9/reused', 'refresh token', 'refresh token reused'],
  ] as const;
  for (const [name, redirectUri, replay, reason] of cases) {
    const clientId = await stolen(name, redirectUri, replay);
    const [grant] = await stack.db.query<{ revoked_reason: string }>('select revoked_reason from oauth_grants where client_id = $1', [clientId]);
    t.equal(grant?.revoked_reason, reason, `${name}: revoked for theft`);
    t.notOk(offersChanges(await consentFor(clientId, redirectUri)), `${name}: the same client is not offered changes`);
    const again = await registerClient(base, redirectUri, name);
    t.notOk(offersChanges(await consentFor(again, redirectUri)), `${name}: nor the same agent registered again`);
  }

  const removed = await registerClient(base, 'http://127.0.0.1:9/removed', 'Removed agent');
  await authorizeWithForms({ baseUrl: base, clientId: removed, redirectUri: 'http://127.0.0.1:9/removed', server: 'crm', email: user.email, password: TEST_PASSWORD, challenge: pkce().challenge, browser });
  await stack.db.query("update oauth_grants set revoked_at = now(), revoked_reason = 'revoked by its user' where client_id = $1", [removed]);
  t.ok(offersChanges(await consentFor(removed, 'http://127.0.0.1:9/removed')), 'a grant its user revoked (the server removed) still counts');
});
