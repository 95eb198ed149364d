import type { BrowserContextOptions, Page } from 'playwright-core';
import t from 'tap';
import { SCOPE_DESCRIPTIONS } from '../../shared/auth/scopes.js';
import { launchBrowser, submitForm } from '../helpers/browser.js';
import { accessibilityViolations } from '../helpers/console-pages.js';
import { authorizeUrl, pkce, registerClient } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The sign-in and consent pages as a person uses them in Chromium: with and without
 * script, by keyboard, on a phone, and with a client whose name tries to look like more.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const stamp = Date.now();
const rep = `consent-rep-${stamp}@example.test`;
const north = await stack.bootstrap({ org: `Initech ${stamp}`, workspace: 'North', email: `consent-owner-${stamp}@example.test` });
const south = await stack.bootstrap({ org: `Initech ${stamp}`, workspace: 'South', email: `consent-owner-${stamp}@example.test` });
await stack.addMember(north.workspace.id, rep, ['contacts.read'], 'all');
await stack.addMember(south.workspace.id, rep, ['contacts.read', 'deals.read'], 'all');

const REDIRECT = 'http://127.0.0.1:9/consent-page/callback';
const browser = await launchBrowser();
t.teardown(() => browser.close());

const grants = async (clientId: string) =>
  stack.db.query<{ workspace_id: string; scopes: string[] }>('select workspace_id, scopes from oauth_grants where client_id = $1', [clientId]);

interface Started {
  page: Page;
  clientId: string;
  /** Where the consent sent the browser back to the client. */
  redirects: URL[];
  /** Does `act` (a click or a key press) and waits until the browser is sent back to the client. */
  toClient(act: () => Promise<unknown>): Promise<void>;
  state: string;
}

/** A fresh browser at the client's authorization URL. */
async function start(clientName: string, options: BrowserContextOptions = {}): Promise<Started> {
  const clientId = await registerClient(base, REDIRECT, clientName);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const redirects: URL[] = [];
  const waiting: (() => void)[] = [];
  // Answered here: the browser would refuse the port (9, "unsafe") on its own.
  await page.route(`${REDIRECT}**`, async (route) => {
    redirects.push(new URL(route.request().url()));
    for (const done of waiting.splice(0)) done();
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Done.' });
  });
  const toClient = async (act: () => Promise<unknown>) => {
    await Promise.all([new Promise<void>((done) => waiting.push(done)), act()]);
  };
  const url = new URL(authorizeUrl({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', challenge: pkce().challenge }));
  await page.goto(url.href);
  return { page, clientId, redirects, toClient, state: url.searchParams.get('state') ?? '' };
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/oauth\/consent/);
}

const shownScopes = async (page: Page) => (await page.locator('section:not([hidden]) li').allInnerTexts()).sort();
const NORTH_SCOPES = [SCOPE_DESCRIPTIONS['contacts:read'], SCOPE_DESCRIPTIONS['schema:read'], SCOPE_DESCRIPTIONS['events:read']].sort();
const SOUTH_SCOPES = [...NORTH_SCOPES, SCOPE_DESCRIPTIONS['deals:read']].sort();

t.test('without script, approving a workspace whose permissions were not shown shows them first and grants nothing yet', async (t) => {
  const { page, clientId, redirects, toClient } = await start('No-script agent', { javaScriptEnabled: false });
  await signIn(page, rep);
  t.same(await shownScopes(page), NORTH_SCOPES, 'the first workspace is shown');
  await page.getByLabel('Workspace').selectOption({ label: `Initech ${stamp} / South` });
  t.equal(await submitForm(page, 'Approve'), 200, 'the page again');
  t.same(redirects, [], 'no redirect to the client (before: a code for South, whose permissions were never shown)');
  t.same(await grants(clientId), [], 'nothing granted');
  t.same(await shownScopes(page), SOUTH_SCOPES, "South's permissions are shown now");
  t.equal(await page.getByLabel('Workspace').inputValue(), south.workspace.id, 'South stays chosen');
  await toClient(() => page.getByRole('button', { name: 'Approve' }).click());
  t.equal(redirects.length, 1, 'approving what was shown goes back to the client');
  t.ok(redirects[0]?.searchParams.get('code'), 'with a code');
  t.same(await grants(clientId), [{ workspace_id: south.workspace.id, scopes: ['contacts:read', 'deals:read', 'schema:read', 'events:read'] }], 'South, as shown');
});

t.test('an Approve that does not say which permissions were on screen (no field, or the field twice) grants nothing', async (t) => {
  // Before, only a field naming another workspace was checked: a form without it (a page served
  // before the field existed, or one written by hand) was granted at once.
  const { page, clientId, redirects } = await start('Fieldless agent');
  await signIn(page, rep);
  const csrf = await page.locator('input[name=csrf_token]').inputValue();
  const request = await page.locator('input[name=request]').inputValue();
  const chosen = north.workspace.id;
  for (const shown of [[], [chosen, chosen]]) {
    const fields: [string, string][] = [['csrf_token', csrf], ['request', request], ['workspace_id', chosen], ['decision', 'approve'], ...shown.map((id): [string, string] => ['shown_workspace', id])];
    const body = new URLSearchParams(fields);
    const res = await page.request.post(`${base}/oauth/consent`, { data: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' }, maxRedirects: 0 });
    t.equal(res.status(), 200, `${shown.length} shown_workspace fields: the page again`);
    t.match(await res.text(), /Nothing is connected yet/);
  }
  t.same(redirects, [], 'no redirect to the client');
  t.same(await grants(clientId), [], 'nothing granted');
});

t.test('without script, "Show permissions" shows the chosen workspace\'s list; nothing is decided', async (t) => {
  const { page, clientId, redirects, toClient } = await start('Reviewing agent', { javaScriptEnabled: false });
  await signIn(page, rep);
  await page.getByLabel('Workspace').selectOption({ label: `Initech ${stamp} / South` });
  t.equal(await submitForm(page, 'Show permissions'), 200);
  t.same(await shownScopes(page), SOUTH_SCOPES, "South's permissions");
  t.same(await grants(clientId), [], 'nothing granted');
  await toClient(() => page.getByRole('button', { name: 'Deny' }).click());
  t.equal(redirects[0]?.searchParams.get('error'), 'access_denied', 'the request was still open');
});

t.test('with script, the list follows the dropdown and approving grants the shown workspace at once', async (t) => {
  const { page, clientId, redirects, toClient } = await start('Script agent');
  await signIn(page, rep);
  await page.getByLabel('Workspace').selectOption({ label: `Initech ${stamp} / South` });
  t.same(await shownScopes(page), SOUTH_SCOPES, 'South shown');
  await page.getByLabel('Workspace').selectOption({ label: `Initech ${stamp} / North` });
  t.same(await shownScopes(page), NORTH_SCOPES, 'North shown');
  await toClient(() => page.getByRole('button', { name: 'Approve' }).click());
  t.equal(redirects.length, 1, 'one redirect');
  t.same((await grants(clientId)).map((g) => g.workspace_id), [north.workspace.id], 'North granted');
});

t.test('a double click on Approve sends the decision once: the client gets its code and one grant is made', async (t) => {
  // Before, the second click's request cancelled the first's navigation: the browser showed the
  // request as expired (it had been answered) and the redirect with the code never reached the client.
  const { page, clientId, redirects, toClient } = await start('Double-clicked agent');
  await signIn(page, rep);
  const posts: string[] = [];
  let firstSent: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (firstSent = resolve));
  // The decision held back half a second, as a slow network would: the second click comes while the first is on its way.
  await page.route(`${base}/oauth/consent`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    posts.push(route.request().url());
    firstSent();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  // Clicked from inside the page: Playwright's own click waits for the first navigation to end.
  await toClient(async () => {
    await page.getByRole('button', { name: 'Approve' }).evaluate((approve: { click(): void }) => {
      approve.click();
      setTimeout(() => approve.click(), 150);
    });
    await sent;
  });
  t.equal(posts.length, 1, 'one POST of the decision');
  t.equal(redirects.length, 1, 'one redirect to the client');
  t.match(redirects[0]?.searchParams.get('code'), /.+/, 'with a code');
  t.same((await grants(clientId)).map((g) => g.workspace_id), [north.workspace.id], 'one grant');
});

t.test('deny: access_denied with the state, nothing granted, and the request cannot be approved afterwards', async (t) => {
  const { page, clientId, redirects, toClient, state } = await start('Denied agent');
  await signIn(page, rep);
  const consentUrl = page.url();
  await toClient(() => page.getByRole('button', { name: 'Deny' }).click());
  t.equal(redirects[0]?.searchParams.get('error'), 'access_denied');
  t.equal(redirects[0]?.searchParams.get('state'), state);
  t.equal(redirects[0]?.searchParams.get('code'), null);
  // Back to the consent page (a tab of its own: the first is still on its way to the client).
  const again = await (await page.context().newPage()).goto(consentUrl);
  t.equal(again?.status(), 404, 'the answered request is gone');
  t.same(await grants(clientId), [], 'nothing granted');
});

t.test('sign-in refusals keep the e-mail and put the focus on the field at fault', async (t) => {
  const { page } = await start('Sign-in agent');
  await page.getByLabel('E-mail').fill(rep);
  await page.getByLabel('Password').fill('not the password');
  t.equal(await submitForm(page, 'Sign in'), 401);
  t.equal(await page.getByLabel('E-mail').inputValue(), rep, 'e-mail kept');
  t.equal(await page.evaluate<string>('document.activeElement.id'), 'password', 'focus on the password');
  t.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
  t.same(await accessibilityViolations(page), [], 'sign-in page with an error: no accessibility violations');
});

t.test('by keyboard alone: sign in, choose a workspace, approve', async (t) => {
  const { page, clientId, redirects, toClient } = await start('Keyboard agent');
  // The page focuses the e-mail box itself (autofocus, applied as the page first renders).
  await page.waitForFunction("document.activeElement && document.activeElement.id === 'email'");
  await page.keyboard.type(rep);
  await page.keyboard.press('Tab');
  await page.keyboard.type(TEST_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/oauth\/consent/);
  t.same(await accessibilityViolations(page), [], 'consent page: no accessibility violations');
  let tabs = 0;
  while ((await page.evaluate<string>('document.activeElement.id')) !== 'workspace' && tabs++ < 20) await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  t.same(await shownScopes(page), SOUTH_SCOPES, 'South shown');
  let guard = 0;
  while ((await page.evaluate<string>('document.activeElement.textContent')) !== 'Approve' && guard++ < 20) await page.keyboard.press('Tab');
  await toClient(() => page.keyboard.press('Enter'));
  t.equal(redirects.length, 1);
  t.same((await grants(clientId)).map((g) => g.workspace_id), [south.workspace.id], 'South granted');
});

t.test('on a phone, a client name of one long word wraps instead of widening the page', async (t) => {
  const name = `Workspace CRM (verified) ${'W'.repeat(150)}`;
  const { page } = await start(name, { viewport: { width: 390, height: 800 } });
  await signIn(page, rep);
  t.equal(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'no sideways scroll at 390 px (before: 3348 px)');
  t.same(await accessibilityViolations(page), [], 'no accessibility violations');
});

t.test('a client name that claims to be verified is marked as the client\'s own words', async (t) => {
  const name = 'Workspace CRM (verified)';
  const { page } = await start(name);
  await signIn(page, rep);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), `Connect ${name} to Workspace CRM`, 'the name as given, escaped (no markup from it)');
  const note = await page.locator('#client-name-note').innerText();
  t.match(note, `“${name}” is the name the client gave itself`, 'said to be the client\'s own (before: nothing said so)');
  t.match(note, 'has not verified it', 'and not verified');
  t.match(note, '127.0.0.1', 'naming where approving leads');
});
