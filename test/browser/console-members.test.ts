import t from 'tap';
import { collectCspViolations, launchBrowser } from '../helpers/browser.js';
import { check, clipboard, shownText, signIn, submit } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The console's members page and workspace switcher in real headless Chromium: an
 * administrator invites, changes and removes a member (who signs in with the temporary
 * password), and moves between the workspaces they belong to, with and without script. Its
 * organizations and people are used by no other test file: the browser files share one stack,
 * and bootstrap reuses an organization and workspace found by name.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Wernham Hogg', workspace: 'Sales', email: 'david@wernham.test', defaultCountry: 'US' });
const support = await stack.bootstrap({ org: 'Wernham Hogg', workspace: 'Support', email: 'david@wernham.test', defaultCountry: 'US' });
const elsewhere = await stack.bootstrap({ org: 'Vance Refrigeration', workspace: 'Secret', email: 'bob@vance.test' });
const ws = `/console/w/${admin.workspace.id}`;
// Three contacts nobody owns: an `owned` member sees none of them, an `all` member all three.
const writer = client(base, await stack.token(admin.workspace.id, ['contacts:write']));
for (const n of [1, 2, 3]) await writer.post('/v1/contacts', { first_name: `Member view ${n}`, phone: `+1 415 555 30${n}0` });

const browser = await launchBrowser();
t.teardown(() => browser.close());
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
const page = await context.newPage();
const cspReports: string[] = [];
collectCspViolations(page, cspReports);
await signIn(page, base, 'david@wernham.test', TEST_PASSWORD);

t.test('members: invite with a temporary password shown once, change, remove', async (t) => {
  await page.goto(`${base}${ws}/members`);
  await check(t, page, 'console-members');
  await page.getByLabel('E-mail', { exact: true }).fill('Gareth@Wernham.test');
  await page.getByLabel('Only the records they own').check();
  t.equal(await submit(page, 'Invite member'), 200);
  await page.getByRole('heading', { name: 'gareth@wernham.test is now a member' }).waitFor();
  t.match(await page.locator('main').innerText(), /You will not see it again/);
  const temporary = await shownText(page, 'temporary-password');
  await page.getByRole('button', { name: 'Copy temporary password' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  t.equal(await clipboard(page), temporary);
  await check(t, page, 'console-member-invited');
  t.equal(new URL(page.url()).pathname, `${ws}/members`, 'the address is the list');
  await page.reload();
  t.equal(await page.getByRole('heading', { name: 'Members', level: 1 }).count(), 1, 'a reload shows the list');
  t.equal(await page.getByRole('alert').count(), 0, 'without posting the invitation again');

  // Gareth signs in with it and must choose a password before anything else.
  const boContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  t.teardown(() => boContext.close());
  const bo = await boContext.newPage();
  collectCspViolations(bo, cspReports);
  await signIn(bo, base, 'gareth@wernham.test', temporary);
  t.equal(new URL(bo.url()).pathname, '/console/account');
  t.match(await bo.locator('main').innerText(), /temporary password/);
  await check(t, bo, 'console-account');
  await bo.goto(`${base}${ws}/contacts`);
  t.equal(new URL(bo.url()).pathname, '/console/account', 'every other page waits for the new password');
  await bo.getByLabel('Current password').fill(temporary);
  await bo.getByLabel('New password', { exact: true }).fill('gareth chose this password');
  await bo.getByLabel('New password again').fill('gareth chose something else');
  t.equal(await submit(bo, 'Change password'), 400, 'the two new passwords must agree');
  await bo.getByLabel('Current password').fill(temporary);
  await bo.getByLabel('New password', { exact: true }).fill('gareth chose this password');
  await bo.getByLabel('New password again').fill('gareth chose this password');
  t.equal(await submit(bo, 'Change password'), 303);
  t.equal(new URL(bo.url()).pathname, ws, 'then on into the workspace');
  const boNav = await bo.getByRole('navigation', { name: 'Console sections' }).innerText();
  t.notMatch(boNav, /API tokens|Members/, 'no administration for Gareth');
  await bo.goto(`${base}${ws}/contacts`);
  t.match(await bo.getByRole('status').innerText(), /0 contacts that you own match/, 'Gareth sees only what Gareth owns');

  // The administrator lets Gareth change contacts.
  await page.goto(`${base}${ws}/members`);
  await page.getByRole('link', { name: 'Change gareth@wernham.test' }).click();
  await page.getByRole('heading', { name: 'Change gareth@wernham.test' }).waitFor();
  await check(t, page, 'console-member-edit');
  for (const box of await page.getByRole('checkbox').all()) await box.uncheck();
  t.equal(await submit(page, 'Save changes'), 400, 'a member needs a permission');
  t.match(await page.getByRole('alert').innerText(), /^Permissions: /);
  t.equal(await page.getByLabel('Read contacts').getAttribute('aria-invalid'), 'true', 'the refused choices are marked');
  t.equal(await page.getByRole('group', { name: 'Permissions' }).getAttribute('aria-describedby'), 'member-error', 'the reason is their description');
  t.equal(await page.getByLabel('Every record of the workspace').getAttribute('aria-invalid'), null, 'and nothing else');
  await page.getByLabel('Read contacts').check();
  await page.getByLabel('Read deals').check();
  await page.getByLabel('Create and change contacts').check();
  await page.getByLabel('Every record of the workspace').check();
  t.equal(await submit(page, 'Save changes'), 303);
  const boRow = page.locator('tr', { hasText: 'gareth@wernham.test' });
  t.match(await boRow.innerText(), /Create and change contacts[\s\S]*Every record of the workspace/);
  await bo.reload();
  t.match(await bo.getByRole('status').innerText(), /3 contacts match/, 'the change applies at Gareth’s next page');

  // The last administrator cannot remove themselves.
  await page.getByRole('link', { name: 'Remove david@wernham.test' }).click();
  t.equal(await submit(page, 'Remove member'), 409);
  t.match(await page.getByRole('alert').innerText(), /last member with the Configuration permission/);
  const invite = page.getByRole('region', { name: 'Invite a member' });
  t.equal(await invite.getByRole('alert').count(), 0, 'the refused removal is not said as if the invitation had failed');
  t.equal(await invite.locator('form').getAttribute('aria-describedby'), null, 'nor given as the invite form’s description');

  await page.getByRole('link', { name: 'Remove gareth@wernham.test' }).click();
  await page.getByRole('heading', { name: 'Remove gareth@wernham.test?' }).waitFor();
  await check(t, page, 'console-member-remove');
  t.equal(await submit(page, 'Remove member'), 303);
  t.equal(await page.locator('tr', { hasText: 'gareth@wernham.test' }).count(), 0);
  const gone = await bo.goto(`${base}${ws}`);
  t.equal(gone?.status(), 404, 'Gareth no longer reaches the workspace');
  await bo.goto(`${base}/console`);
  t.match(await bo.locator('main').innerText(), /not a member of any workspace/);
});

t.test('the workspace switcher, with and without script; other workspaces stay hidden', async (t) => {
  await page.goto(`${base}${ws}/contacts`);
  const switcher = page.getByLabel('Workspace');
  t.same(await switcher.locator('option').allInnerTexts(), ['Wernham Hogg / Sales', 'Wernham Hogg / Support']);
  await switcher.selectOption({ label: 'Wernham Hogg / Support' });
  await page.waitForURL(`${base}/console/w/${support.workspace.id}/contacts`);
  t.match(await page.locator('.workspace-name').innerText(), /Support/, 'the same section, in the other workspace');
  t.match(await page.getByRole('status').innerText(), /0 contacts match/, 'with that workspace’s data');

  const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  t.teardown(() => noScript.close());
  const plain = await noScript.newPage();
  collectCspViolations(plain, cspReports);
  await signIn(plain, base, 'david@wernham.test', TEST_PASSWORD, `${ws}/deals`);
  await plain.getByLabel('Workspace').selectOption({ label: 'Wernham Hogg / Support' });
  await plain.getByRole('button', { name: 'Switch' }).click();
  await plain.waitForURL(`${base}/console/w/${support.workspace.id}/deals`);
  t.pass('switching works without script');

  const hidden = await page.goto(`${base}/console/w/${elsewhere.workspace.id}`);
  t.equal(hidden?.status(), 404, 'a workspace of another organization is not found');
  const unknown = await page.goto(`${base}/console/w/ws_nope/tokens`);
  t.equal(unknown?.status(), 404);
  await check(t, page, 'console-not-found');
  // A percent-escape that does not decode (a mangled link) was a 500 "Something went wrong".
  for (const path of ['/contacts/%E0%A4%A', '/deals/%', '/webhooks/%ZZ', '/members/%E0%A4%A/remove']) {
    const mangled = await page.goto(`${base}${ws}${path}`);
    t.equal(mangled?.status(), 400, `${path}: 400`);
    t.match(await page.getByRole('alert').innerText(), /percent-escape/, 'said in words, inside the console');
  }
  await check(t, page, 'console-bad-address');
  const current = () => page.getByRole('navigation', { name: 'Console sections' }).locator('[aria-current="page"]').allInnerTexts();
  t.equal((await page.goto(`${base}${ws}/contacts/con_nope`))?.status(), 404);
  t.same(await current(), ['Contacts'], 'a refusal is shown in the section it is in, not as the Overview');
  t.equal((await page.goto(`${base}${ws}/nowhere`))?.status(), 404);
  t.same(await current(), [], 'and in none for an address of none');
});

t.test('the pages ran without a single CSP violation', async (t) => {
  t.same(cspReports, []);
});
