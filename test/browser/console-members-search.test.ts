import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { consoleBrowser } from '../helpers/browser.js';
import { check, signIn, submit } from '../helpers/console-pages.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The Members page's search by e-mail, in real headless Chromium: the list had none, 50 a
 * page oldest first, so in a workspace of many someone just invited was on its last page.
 * A plain GET form (so without script too) whose query the "More" links, a row's change and
 * remove, and their way back keep; the count line says how many match; a page-2 address made
 * under another search answers that search's first page, saying why.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const suffix = Date.now().toString(36);
const adminEmail = `chief-${suffix}@roster-finder.test`;
const admin = await stack.bootstrap({ org: 'Roster Finder Co', workspace: 'Roster', email: adminEmail });
const ws = `/console/w/${admin.workspace.id}`;
const PAGE = 50;

// 53 staff (a first page of 50, three on the second) and one newcomer, joined last. Two at a time, as the worker hashes passwords.
const staffEmail = (n: number) => `staff-${String(n).padStart(2, '0')}-${suffix}@roster-finder.test`;
for (let n = 1; n <= 53; n += 2) {
  await Promise.all([n, n + 1].filter((i) => i <= 53).map((i) => stack.addMember(admin.workspace.id, staffEmail(i), ['contacts.read'], 'all')));
}
const newcomer = `zoe.newcomer-${suffix}@roster-finder.test`;
await stack.addMember(admin.workspace.id, newcomer, ['contacts.read'], 'all');

const browser = await consoleBrowser(t);

async function signedIn(options: { javaScriptEnabled: boolean }): Promise<Page> {
  const page = await browser.newPage(options);
  t.teardown(() => page.context().close());
  await signIn(page, base, adminEmail, TEST_PASSWORD);
  return page;
}

const memberEmails = async (page: Page) => (await page.locator('main tbody tr td:first-child').allInnerTexts()).map((text) => text.replace(/ \(you\)$/, ''));
const countLine = (page: Page) => page.getByRole('status').filter({ hasText: /members? match|in the order they joined/ }).innerText();
const query = (page: Page) => new URL(page.url()).searchParams;

/** Waits until the page is the members list again, with `search` and on the page `cursor` names. */
async function backOnList(t: Test, page: Page, search: string, cursor: string | null, what: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === `${ws}/members` && url.searchParams.get('search') === search && url.searchParams.get('cursor') === cursor);
  await page.getByRole('table').waitFor();
  t.pass(what);
}

t.test('members: the search form finds by part of an e-mail, and its query stays through More and the row actions', async (t) => {
  const page = await signedIn({ javaScriptEnabled: false });
  await page.goto(`${base}${ws}/members`);
  t.match(await countLine(page), /^55 members, in the order they joined/);
  t.notOk((await memberEmails(page)).includes(newcomer), 'the newcomer is not on the first page');

  // Anywhere in the address, in any case.
  await page.getByLabel('E-mail contains').fill('NEWCOMER');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('search') === 'NEWCOMER');
  t.match(await countLine(page), /^1 member matches “NEWCOMER”/);
  t.same(await memberEmails(page), [newcomer], 'found');
  t.equal(await page.getByLabel('E-mail contains').inputValue(), 'NEWCOMER', 'the form shows the search');

  await page.getByLabel('E-mail contains').fill('staff-');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('search') === 'staff-');
  t.match(await countLine(page), /^53 members match “staff-”/, 'the count is of those that match');
  const first = await memberEmails(page);
  t.equal(first.length, PAGE);
  t.ok(first.every((e) => e.includes('staff-')), 'only those that match');

  await page.getByRole('link', { name: 'More members' }).click();
  await page.waitForURL((url) => url.searchParams.has('cursor'));
  t.equal(query(page).get('search'), 'staff-', 'More keeps the search');
  const cursor = query(page).get('cursor');
  const second = await memberEmails(page);
  // 51 and 52 joined together, in either order.
  t.same([...second].sort(), [staffEmail(51), staffEmail(52), staffEmail(53)], 'page 2: the last three staff, not the newcomer');
  t.match(await countLine(page), /^53 members match/);
  t.equal(await page.getByRole('link', { name: 'First page' }).getAttribute('href'), `${ws}/members?search=staff-`, 'back to the first page of the search');

  // A change from page 2 of the search comes back there.
  await page.getByRole('link', { name: `Change ${staffEmail(51)}` }).click();
  await page.getByRole('heading', { name: `Change ${staffEmail(51)}` }).waitFor();
  t.equal(new URL(page.url()).searchParams.get('search'), 'staff-', 'the change page carries the search');
  await page.getByLabel('Read deals').check();
  t.equal(await submit(page, 'Save changes'), 303);
  await backOnList(t, page, 'staff-', cursor, 'back on page 2 of the search after a change');
  await page.getByText('The member’s permissions were changed.').waitFor();
  t.match(await page.locator('tr', { hasText: staffEmail(51) }).innerText(), /Read deals/);

  await page.getByRole('link', { name: `Remove ${staffEmail(52)}` }).click();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await backOnList(t, page, 'staff-', cursor, 'cancel goes back to page 2 of the search');

  await page.getByRole('link', { name: `Remove ${staffEmail(52)}` }).click();
  t.equal(await submit(page, 'Remove member'), 303);
  await backOnList(t, page, 'staff-', cursor, 'a removal goes back to page 2 of the search');
  await page.getByText('The member was removed.').waitFor();
  t.match(await countLine(page), /^52 members match “staff-”/);
  t.same(await memberEmails(page), [staffEmail(51), staffEmail(53)]);

  // The page-2 address of this search, with another search: that search's first page, saying why.
  const stale = await page.goto(`${base}${ws}/members?search=newcomer&cursor=${encodeURIComponent(cursor ?? '')}`);
  t.equal(stale?.status(), 200, 'answered');
  t.equal(await page.getByText(/That page’s address no longer works.*here is the first page/).count(), 1, 'said above it');
  t.same(await memberEmails(page), [newcomer], 'the first page of the search asked for');
  t.match(await countLine(page), /^1 member matches “newcomer”/);
});

t.test('members: % and _ are searched for as themselves; a blank search lists everyone, one too long is refused', async (t) => {
  const page = await signedIn({ javaScriptEnabled: false });
  await page.goto(`${base}${ws}/members?search=${encodeURIComponent('%')}`);
  t.match(await countLine(page), /^0 members match “%”/, 'not every member');
  t.equal(await page.getByText('No member’s e-mail contains that.').count(), 1);
  await page.goto(`${base}${ws}/members?search=${encodeURIComponent('staff_')}`);
  t.match(await countLine(page), /^0 members match/, '_ is not any character');
  await page.goto(`${base}${ws}/members?search=${encodeURIComponent('   ')}`);
  t.match(await countLine(page), /in the order they joined/, 'blank: everyone');
  t.notMatch(await countLine(page), /match/);
  const long = await page.goto(`${base}${ws}/members?search=${'x'.repeat(101)}`);
  t.equal(long?.status(), 400, 'a search longer than the field allows');
  const field = page.getByLabel('E-mail contains');
  t.equal(await field.inputValue(), 'x'.repeat(101), 'comes back in its field as typed');
  t.equal(await field.getAttribute('aria-invalid'), 'true', 'marked');
  t.match(await page.getByRole('alert').first().innerText(), /E-mail contains: must be at most 100 characters/, 'the reason, by the field’s label');
  t.notMatch(await countLine(page), /match/, 'over the list of everyone');
});

t.test('members: the search and its second page pass the accessibility check', async (t) => {
  const page = await signedIn({ javaScriptEnabled: true });
  await page.goto(`${base}${ws}/members?search=staff-`);
  await check(t, page, 'console-members-search');
  await page.getByRole('link', { name: 'More members' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
  await check(t, page, 'console-members-search-page-2');
});

t.test('the pages ran without a single CSP violation', async (t) => {
  t.same(browser.cspReports, []);
});
