import type { BrowserContext, Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { launchBrowser } from '../helpers/browser.js';
import { check, signIn, submit } from '../helpers/console-pages.js';
import { authorizeWithForms, FormBrowser, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The Members and Connected agents pages of a workspace with many of each, in real headless
 * Chromium: they listed every row on one page, read in one unbounded query. They show 50 at a
 * time with "More …" links (plain links, so without script too), say how many there are, and a
 * change, removal or revocation taken from page 2 comes back to page 2 (the tokens page too).
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const suffix = Date.now().toString(36);
const adminEmail = `boss-${suffix}@paging.test`;
const admin = await stack.bootstrap({ org: 'Paging Co', workspace: 'Crowded', email: adminEmail });
const ws = `/console/w/${admin.workspace.id}`;
const PAGE = 50;

/** Member n's e-mail, numbered so that the order they joined reads off the page. */
const memberEmail = (n: number) => `m${String(n).padStart(2, '0')}-${suffix}@paging.test`;
// 54 members besides the administrator (55 in all): the second page holds five. Two at a time, as the worker hashes passwords.
for (let n = 1; n <= 54; n += 2) {
  await Promise.all([n, n + 1].map((i) => stack.addMember(admin.workspace.id, memberEmail(i), ['contacts.read'], 'all')));
}

// 52 agents, each its own client (as a platform whose every sign-in registers one), all the administrator's.
const REDIRECT = 'http://127.0.0.1:9/callback';
const agentBrowser = new FormBrowser();
for (let n = 1; n <= 52; n++) {
  const clientId = await registerClient(base, REDIRECT, `Agent ${String(n).padStart(2, '0')}`);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email: adminEmail, password: TEST_PASSWORD, challenge, browser: agentBrowser });
  const tokens = await tokenRequest(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource: `${base}/mcp/crm` });
  if (tokens.status !== 200) throw new Error(JSON.stringify(tokens.body));
}

// 52 API tokens: the tokens page was paged already, but a revocation from page 2 went back to page 1.
for (let n = 1; n <= 52; n++) await stack.token(admin.workspace.id, ['contacts:read'], { name: `Token ${String(n).padStart(2, '0')}` });

const browser = await launchBrowser();
t.teardown(() => browser.close());

async function signedIn(options: { javaScriptEnabled: boolean }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  await signIn(page, base, adminEmail, TEST_PASSWORD);
  return { context, page };
}

const rows = (page: Page) => page.locator('main tbody tr');
/** The members listed on the page, by e-mail. */
const memberEmails = async (page: Page) => (await page.locator('main tbody tr td:first-child').allInnerTexts()).map((text) => text.replace(/ \(you\)$/, ''));
/** The line that says how many there are (a notice after an action is a status too). */
const countLine = (page: Page, text: RegExp) => page.getByRole('status').filter({ hasText: text }).innerText();
const query = (page: Page) => new URL(page.url()).searchParams;

/** Waits until the page is the list at `path` again, on the page `cursor` names: a return from a row's action. */
async function backOnList(t: Test, page: Page, path: string, cursor: string | null, what: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === `${ws}${path}` && url.searchParams.get('cursor') === cursor);
  t.pass(what);
}

t.test('members: 50 a page in the order they joined, and a change or removal from page 2 returns there', async (t) => {
  const { context, page } = await signedIn({ javaScriptEnabled: false });
  t.teardown(() => context.close());
  await page.goto(`${base}${ws}/members`);
  t.match(await countLine(page, /members/), /^55 members, in the order they joined/);
  const first = await memberEmails(page);
  t.equal(first.length, PAGE, 'one page of 50');
  t.equal(first[0], adminEmail, 'the administrator joined first');
  t.equal(await page.getByRole('link', { name: 'First page' }).count(), 0, 'no way back from the first page');

  await page.getByRole('link', { name: 'More members' }).click();
  await page.waitForURL((url) => url.searchParams.has('cursor'));
  const cursor = query(page).get('cursor');
  const second = await memberEmails(page);
  t.equal(second.length, 5, 'page 2: the other five');
  t.equal(new Set([...first, ...second, adminEmail]).size, 55, 'every member on one page or the other, none twice');
  const [changed, removed] = second as [string, string];
  t.equal(await page.getByRole('link', { name: 'More members' }).count(), 0, 'the last page');
  t.equal(await page.getByRole('link', { name: 'First page' }).count(), 1);

  // Change m52 from page 2, without script: back to page 2, the change made.
  await page.getByRole('link', { name: `Change ${changed}` }).click();
  await page.getByRole('heading', { name: `Change ${changed}` }).waitFor();
  await page.getByLabel('Read deals').check();
  t.equal(await submit(page, 'Save changes'), 303);
  await backOnList(t, page, '/members', cursor, 'back on page 2');
  await page.getByText('The member’s permissions were changed.').waitFor();
  t.match(await page.locator('tr', { hasText: changed }).innerText(), /Read deals/, 'with the new permission');

  // Cancel keeps the page too.
  await page.getByRole('link', { name: `Remove ${removed}` }).click();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await backOnList(t, page, '/members', cursor, 'cancel goes back to page 2');

  await page.getByRole('link', { name: `Remove ${removed}` }).click();
  t.equal(await submit(page, 'Remove member'), 303);
  await backOnList(t, page, '/members', cursor, 'a removal goes back to page 2');
  await page.getByText('The member was removed.').waitFor();
  t.match(await countLine(page, /members, in the order/), /^54 members/);
  t.equal(await rows(page).count(), 4, 'the four left on page 2');
  t.equal(await page.locator('tr', { hasText: removed }).count(), 0);
});

t.test('members: the paged list passes the accessibility check', async (t) => {
  const { context, page } = await signedIn({ javaScriptEnabled: true });
  t.teardown(() => context.close());
  await page.goto(`${base}${ws}/members`);
  await page.getByRole('link', { name: 'More members' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  await check(t, page, 'console-members-page-2');
});

t.test('connected agents: 50 a page, newest first, and a revocation from page 2 returns there', async (t) => {
  const { context, page } = await signedIn({ javaScriptEnabled: false });
  t.teardown(() => context.close());
  await page.goto(`${base}${ws}/agents`);
  t.match(await countLine(page, /newest first/), /^52 connected agents, newest first/);
  t.equal(await rows(page).count(), PAGE);
  t.match(await rows(page).first().innerText(), /Agent 52/, 'the newest first');

  await page.getByRole('link', { name: 'More agents' }).click();
  await page.waitForURL((url) => url.searchParams.has('cursor'));
  const cursor = query(page).get('cursor');
  t.same((await rows(page).allInnerTexts()).map((r) => /Agent \d\d/.exec(r)?.[0]), ['Agent 02', 'Agent 01'], 'page 2: the two oldest');

  await page.getByRole('link', { name: /^Revoke Agent 02/ }).click();
  await page.getByRole('heading', { name: 'Disconnect Agent 02?' }).waitFor();
  t.equal(await submit(page, 'Revoke access'), 303);
  await backOnList(t, page, '/agents', cursor, 'back on page 2');
  await page.getByText('The agent was disconnected.').waitFor();
  t.same((await rows(page).allInnerTexts()).map((r) => /Agent \d\d/.exec(r)?.[0]), ['Agent 01'], 'the revoked one gone');
  t.match(await countLine(page, /newest first/), /^51 connected agents/);

  // With revoked agents shown, the pages carry that filter on.
  await page.goto(`${base}${ws}/agents?revoked=1`);
  t.match(await countLine(page, /newest first/), /^52 agents/);
  await page.getByRole('link', { name: 'More agents' }).click();
  await page.waitForURL((url) => url.searchParams.has('cursor'));
  t.equal(query(page).get('revoked'), '1');
  t.match(await page.locator('tr', { hasText: 'Agent 02' }).innerText(), /Revoked/);

  // A page-2 address made for another filter (a bookmark, say): the first page, saying why, not a bare error page.
  const stale = await page.goto(`${base}${ws}/agents?cursor=${encodeURIComponent(query(page).get('cursor') ?? '')}`);
  t.equal(stale?.status(), 200, 'answered');
  t.equal(await page.getByText(/That page’s address no longer works.*here is the first page/).count(), 1, 'said above it');
  t.equal(await rows(page).count(), PAGE, 'the first page');
});

t.test('connected agents: the paged list passes the accessibility check', async (t) => {
  const { context, page } = await signedIn({ javaScriptEnabled: true });
  t.teardown(() => context.close());
  await page.goto(`${base}${ws}/agents`);
  await page.getByRole('link', { name: 'More agents' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  await check(t, page, 'console-agents-page-2');
});

t.test('API tokens: a revocation from page 2 returns to page 2', async (t) => {
  const { context, page } = await signedIn({ javaScriptEnabled: false });
  t.teardown(() => context.close());
  await page.goto(`${base}${ws}/tokens`);
  await page.getByRole('link', { name: 'More tokens' }).click();
  await page.waitForURL((url) => url.searchParams.has('cursor'));
  const cursor = query(page).get('cursor');
  const target = page.locator('tr', { hasText: 'Token 52' });
  await target.getByRole('link', { name: 'Revoke Token 52' }).click();
  t.equal(await submit(page, 'Revoke token'), 303);
  await backOnList(t, page, '/tokens', cursor, 'back on page 2');
  await page.getByText('The token was revoked.').waitFor();
  t.equal(await page.locator('tr', { hasText: 'Token 52' }).count(), 0, 'gone from the active tokens');
});
