import t from 'tap';
import { SESSION_LIFETIME } from '../../shared/contracts/sessions.js';
import { launchBrowser } from '../helpers/browser.js';
import { signIn as signInWithChromium } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { field, FormBrowser } from '../helpers/oauth-forms.js';
import { CrmProcess } from '../helpers/process.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Console sessions, attacked with plain HTTP (cookies kept by hand) and once in Chromium:
 * the cookie's prefix, the absolute lifetime, the password change, the CSRF token's binding
 * to its session, and HSTS behind https.
 */
const stack = await useStack(t);
const SESSION = '__Host-crm_session';
const CSRF = '__Host-crm_csrf';

async function signedIn(email: string, password = TEST_PASSWORD): Promise<FormBrowser> {
  const browser = new FormBrowser();
  const page = await (await browser.request(`${stack.baseUrl}/sign-in?next=/console/account`)).text();
  const res = await browser.postForm(`${stack.baseUrl}/sign-in`, { csrf_token: field(page, 'csrf_token'), next: '/console/account', email, password });
  if (res.status !== 303) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return browser;
}

/** 200 while the session holds; a redirect to sign in once it has ended. */
async function accountStatus(browser: FormBrowser): Promise<number> {
  const res = await browser.request(`${stack.baseUrl}/console/account`);
  await res.arrayBuffer();
  return res.status;
}

async function csrfOf(browser: FormBrowser, path = '/console/account'): Promise<string> {
  return field(await (await browser.request(`${stack.baseUrl}${path}`)).text(), 'csrf_token');
}

async function sessionsOf(userId: string) {
  return stack.db.query<{ id: string; created_at: Date; expires_at: Date; revoked_at: Date | null }>(
    'select id, created_at, expires_at, revoked_at from user_sessions where user_id = $1 order by created_at',
    [userId],
  );
}

t.test('the session cookie is __Host- (Secure, Path=/, no Domain) and works on http://127.0.0.1, in plain HTTP and in Chromium', async (t) => {
  // Before, the cookie was plain `crm_session`, which a sibling subdomain could set or overwrite.
  await stack.bootstrap({ email: 'host-prefix@sessions.test' });
  const browser = new FormBrowser();
  const page = await (await browser.request(`${stack.baseUrl}/sign-in`)).text();
  const res = await browser.postForm(`${stack.baseUrl}/sign-in`, { csrf_token: field(page, 'csrf_token'), next: '/console', email: 'host-prefix@sessions.test', password: TEST_PASSWORD });
  t.equal(res.status, 303);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`)) ?? '';
  t.match(cookie, /; Path=\/(;|$)/);
  t.match(cookie, /; Secure(;|$)/);
  t.match(cookie, /; HttpOnly(;|$)/);
  t.notMatch(cookie, /Domain=/i);
  t.match(cookie, new RegExp(`Max-Age=${SESSION_LIFETIME.absoluteDays * 86_400}`), 'the browser keeps it no longer than the absolute lifetime');
  t.notOk(res.headers.getSetCookie().some((c) => c.startsWith('crm_session=')), 'no unprefixed session cookie');
  t.equal(await accountStatus(browser), 200, 'plain HTTP clients sign in with it');

  const chromium = await launchBrowser();
  t.teardown(() => chromium.close());
  const context = await chromium.newContext();
  const tab = await context.newPage();
  await signInWithChromium(tab, stack.baseUrl, 'host-prefix@sessions.test', TEST_PASSWORD, '/console/account');
  const stored = (await context.cookies(stack.baseUrl)).find((c) => c.name === SESSION);
  t.ok(stored?.secure, 'Chromium keeps the Secure __Host- cookie on http://127.0.0.1 (a secure context)');
  t.equal(new URL(tab.url()).pathname, '/console/account', 'and the console opens with it');
  await tab.getByRole('heading', { name: 'Change your password' }).waitFor();
});

t.test('a session kept busy ends 7 days after sign-in (absolute lifetime)', async (t) => {
  // Before, every page seen pushed expires_at 14 days ahead: a stolen cookie used daily lived for ever.
  const { user } = await stack.bootstrap({ email: 'absolute@sessions.test' });
  const browser = await signedIn(user.email);
  t.equal(await accountStatus(browser), 200);

  // Almost a week old and seen a moment ago: a page still opens, and the sliding write stops at the week.
  await stack.db.query(
    "update user_sessions set created_at = now() - interval '7 days' + interval '1 hour', last_seen_at = now() - interval '2 minutes' where user_id = $1",
    [user.id],
  );
  t.equal(await accountStatus(browser), 200);
  const [nearlyOld] = await sessionsOf(user.id);
  t.ok(nearlyOld, 'the session exists');
  const limit = new Date(nearlyOld!.created_at).getTime() + SESSION_LIFETIME.absoluteDays * 86_400_000;
  t.ok(new Date(nearlyOld!.expires_at).getTime() <= limit, 'seeing a page extends it no further than 7 days after sign-in');

  // A week and a minute old, seen just now, with expires_at still ahead (as the sliding timeout alone left it).
  await stack.db.query(
    "update user_sessions set created_at = now() - interval '7 days 1 minute', last_seen_at = now(), expires_at = now() + interval '1 day' where user_id = $1",
    [user.id],
  );
  const res = await browser.request(`${stack.baseUrl}/console/account`);
  t.equal(res.status, 303, 'the session has ended');
  t.match(res.headers.get('location') ?? '', /^\/sign-in\?next=/);
});

t.test('changing the password ends the other sessions and replaces the current one', async (t) => {
  // Before, the session the change was made in kept its token: whoever had copied it kept access.
  const { user } = await stack.bootstrap({ email: 'rotate@sessions.test' });
  const here = await signedIn(user.email);
  const elsewhere = await signedIn(user.email);
  const before = here.cookie(SESSION) ?? '';
  t.ok(before);

  const res = await here.postForm(`${stack.baseUrl}/console/account/password`, {
    csrf_token: await csrfOf(here),
    current_password: TEST_PASSWORD,
    new_password: 'a new and longer password',
    repeat_password: 'a new and longer password',
  });
  t.equal(res.status, 303);
  const after = here.cookie(SESSION) ?? '';
  t.ok(after && after !== before, 'the browser got a new session cookie');
  t.equal(await accountStatus(here), 200, 'and carries on with it');
  t.equal(await accountStatus(elsewhere), 303, 'the other session ended');

  const replay = new FormBrowser();
  replay.setCookie(SESSION, before);
  t.equal(await accountStatus(replay), 303, 'the old token of this session no longer works');
  const sessions = await sessionsOf(user.id);
  t.equal(sessions.filter((s) => s.revoked_at === null).length, 1, 'one live session is left');
});

t.test('a CSRF token from one session is refused in another', async (t) => {
  // Before, the token was a double-submit cookie: any cookie and field that matched passed,
  // so a planted `crm_csrf` cookie, or a token from the attacker's own session, worked.
  const victim = await stack.bootstrap({ email: 'victim@sessions.test' });
  const attacker = await signedIn((await stack.bootstrap({ email: 'attacker@sessions.test' })).user.email);
  const attackerToken = await csrfOf(attacker);
  const browser = await signedIn(victim.user.email);
  const tokensPage = `/console/w/${victim.workspace.id}/tokens`;
  const names = async () =>
    (await stack.db.query<{ name: string }>('select name from api_tokens where workspace_id = $1', [victim.workspace.id])).map((r) => r.name);

  const post = (csrf: string, name: string) => browser.postForm(`${stack.baseUrl}${tokensPage}`, { csrf_token: csrf, name, scopes: 'contacts:read' });
  browser.setCookie(CSRF, attackerToken);
  browser.setCookie('crm_csrf', attackerToken);
  t.equal((await post(attackerToken, 'Planted')).status, 403, "the attacker's token with a planted cookie is refused");

  const second = await signedIn(victim.user.email);
  const otherSessionToken = await csrfOf(second, tokensPage);
  t.equal((await post(otherSessionToken, 'Other session')).status, 403, "the same user's other session's token is refused");
  t.same(await names(), [], 'nothing was created');

  const own = await post(await csrfOf(browser, tokensPage), 'Own');
  t.equal(own.status, 200, "the session's own token is accepted (the page shows the new token)");
  t.same(await names(), ['Own']);
});

t.test('Strict-Transport-Security when PUBLIC_URL is https; plain cookies on a plain-http non-loopback URL', async (t) => {
  // Before, no response carried HSTS, so a first plain-http visit could be downgraded.
  const gatewayWith = async (publicUrl: string): Promise<string> => {
    const gateway = new CrmProcess(`gateway ${publicUrl}`, ['gateway'], { ...stack.envFor('gateway'), PORT: '0', PUBLIC_URL: publicUrl });
    t.teardown(() => gateway.stop());
    const [, port] = await gateway.waitFor(/"port":(\d+)/);
    return `http://127.0.0.1:${port}`;
  };
  const [https, lan] = await Promise.all([gatewayWith('https://crm.example.test'), gatewayWith('http://crm.internal.test:8080')]);

  for (const path of ['/healthz', '/sign-in', '/v1/me']) {
    const res = await fetch(`${https}${path}`);
    t.equal(res.headers.get('strict-transport-security'), 'max-age=31536000', `${path}: HSTS behind https`);
    t.equal((await fetch(`${stack.baseUrl}${path}`)).headers.get('strict-transport-security'), null, `${path}: none over plain http`);
  }
  const secureCookie = (await fetch(`${https}/sign-in`)).headers.getSetCookie()[0] ?? '';
  t.match(secureCookie, /^__Host-crm_csrf=.*; Secure/, 'https: __Host- cookies');
  const lanCookie = (await fetch(`${lan}/sign-in`)).headers.getSetCookie()[0] ?? '';
  t.match(lanCookie, /^crm_csrf=/, 'plain http on another host: no prefix, which a browser would refuse there');
  t.notMatch(lanCookie, /Secure/);
});

t.test('a refused sign-in puts the focus, and the reason, on the field it is about', async (t) => {
  const user = await stack.bootstrap({ org: 'Focus Org', workspace: 'Main', email: 'focus@sessions.test' });
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const focused = () => page.evaluate<string | null>('document.activeElement.id');
  const attempt = async (email: string, password: string) => {
    await page.goto(`${stack.baseUrl}/console`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in' }).click()]);
    await page.getByRole('alert').waitFor();
  };

  // Before, focus went back to the e-mail box (already right) and the reason belonged to the form, not the field.
  await attempt(user.user.email, 'not the password at all');
  t.equal(await focused(), 'password', 'a wrong password: focus on the password box');
  t.equal(await page.getByLabel('Password').getAttribute('aria-describedby'), 'sign-in-error', 'which is described by the reason');
  t.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true', 'and marked as the field refused');
  t.equal(await page.getByLabel('E-mail').getAttribute('aria-invalid'), null, 'the e-mail was right');
  t.equal(await page.getByLabel('E-mail').inputValue(), user.user.email, 'and is kept');

  await attempt('nobody@sessions.test', 'whatever it is');
  t.equal(await focused(), 'email', 'an unknown e-mail: focus on the e-mail box');
  t.equal(await page.getByLabel('E-mail').getAttribute('aria-describedby'), 'sign-in-error', 'described by the reason');
  t.equal(await page.getByLabel('E-mail').getAttribute('aria-invalid'), 'true', 'and marked as the field refused');
});

t.test('a form sent after the session ended leads to sign-in, then back to the page the form was on', async (t) => {
  const { user, workspace } = await stack.bootstrap({ org: 'Expiry Org', workspace: 'Main', email: 'expiry@sessions.test', defaultCountry: 'US' });
  const ws = `/console/w/${workspace.id}`;
  const api = client(stack.baseUrl, await stack.token(workspace.id, ['contacts:write']));
  const contact = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Ended', phone: '+1 415 555 0901' })).body.id;
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const tab = await browser.newPage();
  const endSession = () => stack.db.query("update user_sessions set expires_at = now() - interval '1 second' where user_id = $1", [user.id]);
  const signBackIn = async () => {
    t.equal(new URL(tab.url()).pathname, '/sign-in', 'asked to sign in again');
    await tab.getByLabel('E-mail').fill(user.email);
    await tab.getByLabel('Password').fill(TEST_PASSWORD);
    await Promise.all([tab.waitForURL((url) => url.pathname !== '/sign-in'), tab.getByRole('button', { name: 'Sign in' }).click()]);
  };

  await signInWithChromium(tab, stack.baseUrl, user.email, TEST_PASSWORD, `${ws}/contacts/${contact}`);
  await tab.getByLabel('Add a note').fill('Typed while the session ended.');
  await endSession();
  await Promise.all([tab.waitForURL((url) => url.pathname === '/sign-in'), tab.getByRole('button', { name: 'Add note', exact: true }).click()]);
  await signBackIn();
  t.equal(new URL(tab.url()).pathname, `${ws}/contacts/${contact}`, "a note's form: back on the contact's page, not the console's first page");

  await tab.goto(`${stack.baseUrl}${ws}/tokens`);
  await tab.getByLabel('Name').fill('Left open');
  await endSession();
  await Promise.all([tab.waitForURL((url) => url.pathname === '/sign-in'), tab.getByRole('button', { name: 'Create token' }).click()]);
  await signBackIn();
  t.equal(new URL(tab.url()).pathname, `${ws}/tokens`, 'a form posted to its own page: back on it');

  // The pipelines page's forms post below it (to a stage's addition or move), where no page is.
  for (const button of [/^Add stage to /, /^Move down /]) {
    await tab.goto(`${stack.baseUrl}${ws}/pipelines`);
    await tab.getByLabel(/^New stage in /).first().fill('Late');
    await endSession();
    await Promise.all([tab.waitForURL((url) => url.pathname === '/sign-in'), tab.getByRole('button', { name: button }).first().click()]);
    await signBackIn();
    t.equal(new URL(tab.url()).pathname, `${ws}/pipelines`, `${String(button)}: back on the pipelines page`);
  }
});
