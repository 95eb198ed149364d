import t from 'tap';
import { consoleBrowser, submitForm } from '../helpers/browser.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The API tokens page names who created each token in words a person knows, in headless
 * Chromium: a member removed since by their e-mail, marked so (their tokens live on), and a
 * revoked token that created another by its name; never a bare usr_/tok_ id.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Vandelay', workspace: 'Imports', email: 'art@vandelay.test' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
await stack.addMember(wsId, 'george@vandelay.test', ['contacts.read', 'configuration'], 'all');

const { newPage, cspReports } = await consoleBrowser(t);

t.test('a removed member and a revoked token are named as creators, not shown as ids', async (t) => {
  // George creates a token in the console, then is removed; his token keeps working.
  const george = await newPage();
  await signIn(george, base, 'george@vandelay.test', TEST_PASSWORD, `${ws}/tokens`);
  await george.getByLabel('Name').fill('Latex sales report');
  await george.getByLabel('contacts:read', { exact: false }).first().check();
  t.equal(await submitForm(george, 'Create token'), 200);
  await george.context().close();

  // A token that creates tokens, revoked since without the ones it created.
  const provisioner = client(base, await stack.token(wsId, ['tokens:write', 'contacts:read'], { name: 'Provisioner' }));
  const me = (await provisioner.get<{ id: string }>('/v1/me')).body;
  t.equal((await provisioner.post('/v1/tokens', { name: 'Nightly export', scopes: ['contacts:read'] })).status, 201);
  const admin = client(base, await stack.token(wsId, ['tokens:write'], { name: 'Admin script' }));
  t.equal((await admin.send('DELETE', `/v1/tokens/${me.id}`)).status, 200);

  const page = await newPage();
  await signIn(page, base, 'art@vandelay.test', TEST_PASSWORD, `${ws}/members`);
  await page.getByRole('link', { name: 'Remove george@vandelay.test' }).click();
  t.equal(await submitForm(page, 'Remove member'), 303);

  await page.goto(`${base}${ws}/tokens`);
  const creator = async (name: string) => (await page.locator('tr', { hasText: name }).locator('td').nth(3).innerText()).trim();
  t.equal(await creator('Latex sales report'), 'george@vandelay.test (no longer a member)');
  t.equal(await creator('Nightly export'), 'API token "Provisioner" (revoked)', 'the creating token is not on the list of active tokens');
  t.equal(await creator('Admin script'), 'crm command line');
  t.notMatch(await page.locator('table').innerText(), /\b(usr|tok)_/, 'no bare id anywhere in the list');
  await check(t, page, 'console-token-creators');
  await page.context().close();
  t.same(cspReports, [], 'no CSP violation on any page');
});
