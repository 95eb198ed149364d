import t from 'tap';
import { authorizeUrl, field, FormBrowser, pkce, registerClient } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * A member invited with a temporary password (which the inviting administrator saw) must
 * choose their own before anything else. Before, the console enforced that, but the OAuth
 * consent did not: whoever knew the temporary password could connect an agent as them.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const REDIRECT = 'http://127.0.0.1:9/cb';
const { workspace } = await stack.bootstrap();
const email = `invited-${Date.now()}@example.test`;
const userId = await stack.addMember(workspace.id, email, ['contacts.read', 'contacts.write'], 'all');
// What an invitation leaves: the temporary password, and the flag that it must be changed.
await stack.db.query('update users set password_change_required = true where id = $1', [userId]);

const browser = new FormBrowser();
const clientId = await registerClient(base, REDIRECT, 'Eager agent');
const grants = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from oauth_grants where workspace_id = $1 and user_id = $2', [workspace.id, userId]))[0]?.n);

/** Authorize and sign in with the temporary password; returns where the browser is sent and the sign-in page's CSRF token. */
async function authorizeAndSignIn(): Promise<{ consentPath: string; csrf: string }> {
  const start = await browser.request(authorizeUrl({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', challenge: pkce().challenge }));
  let location = start.headers.get('location') ?? '';
  if (location.startsWith('/sign-in')) {
    const page = await (await browser.request(`${base}${location}`)).text();
    const csrf = field(page, 'csrf_token');
    const signedIn = await browser.postForm(`${base}/sign-in`, { csrf_token: csrf, next: field(page, 'next').replace(/&amp;/g, '&'), email, password: TEST_PASSWORD });
    location = signedIn.headers.get('location') ?? '';
    return { consentPath: location, csrf };
  }
  return { consentPath: location, csrf: '' };
}

t.test('with the temporary password, consent is refused and a forged approval changes nothing', async (t) => {
  const { consentPath } = await authorizeAndSignIn();
  t.match(consentPath, /^\/oauth\/consent\?request=/, 'signed in');
  const consent = await browser.request(`${base}${consentPath}`);
  t.equal(consent.status, 403, 'no consent form (before: the form, and a grant on approval)');
  const page = await consent.text();
  t.match(page, /Choose your own password first/);
  t.match(page, /href="\/console\/account"/, 'it says where to change it');
  t.notMatch(page, /name="decision"/);

  // The form posted anyway, with the request id and this session's valid CSRF token (the account
  // page, which stays open, shows it; CSRF tokens are bound to the session): refused by the tokens worker.
  const requestId = new URL(consentPath, base).searchParams.get('request') ?? '';
  const csrf = field(await (await browser.request(`${base}/console/account`)).text(), 'csrf_token');
  const forged = await browser.postForm(`${base}/oauth/consent`, { csrf_token: csrf, request: requestId, workspace_id: workspace.id, shown_workspace: workspace.id, decision: 'approve' });
  t.equal(forged.status, 403);
  t.match(await forged.text(), /Choose your own password first/, 'refused for the password, not for the CSRF token');
  t.equal(forged.headers.get('location'), null, 'no code sent to the client');
  t.equal(await grants(), 0, 'no grant');
  const pending = await stack.db.query<{ completed_at: Date | null }>('select completed_at from oauth_authorization_requests where id = $1', [requestId]);
  t.equal(pending[0]?.completed_at, null, 'the request is left as it was');
});

t.test('once the password is changed, the same user can connect the agent', async (t) => {
  const account = await (await browser.request(`${base}/console/account`)).text();
  const changed = await browser.postForm(`${base}/console/account/password`, {
    csrf_token: field(account, 'csrf_token'),
    current_password: TEST_PASSWORD,
    new_password: 'a brand new long password',
    repeat_password: 'a brand new long password',
  });
  t.equal(changed.status, 303, 'password changed');
  const start = await browser.request(authorizeUrl({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', challenge: pkce().challenge }));
  const consentPath = start.headers.get('location') ?? '';
  const consent = await browser.request(`${base}${consentPath}`);
  t.equal(consent.status, 200, 'the consent form is shown');
  const html = await consent.text();
  const approved = await browser.postForm(`${base}/oauth/consent`, { csrf_token: field(html, 'csrf_token'), request: field(html, 'request'), workspace_id: workspace.id, shown_workspace: workspace.id, decision: 'approve' });
  t.equal(approved.status, 303);
  t.ok(new URL(approved.headers.get('location') ?? '').searchParams.get('code'), 'a code for the client');
  t.equal(await grants(), 1);
});
