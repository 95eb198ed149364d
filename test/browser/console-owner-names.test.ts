import t from 'tap';
import { consoleBrowser } from '../helpers/browser.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The owner of a record is named by e-mail to every member who sees others' records, in
 * headless Chromium; before, only administrators saw e-mails and everyone else a bare usr_… id.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Pendant', workspace: 'Publishing', email: 'elaine@pendant.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
await stack.addMember(wsId, 'kramer@pendant.test', ['contacts.read', 'deals.read'], 'all');
await stack.addMember(wsId, 'newman@pendant.test', ['configuration'], 'all');
const api = client(base, await stack.token(wsId, ['contacts:write', 'deals:write']));
const contactId = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Jackie', phone: '+1 415 555 0801', owner_id: admin.user.id })).body.id;
await api.post('/v1/deals', { name: 'Kramerica', owner_id: admin.user.id });

const { newPage, cspReports } = await consoleBrowser(t);

t.test("a member who is not an administrator sees the owner's e-mail, not an id", async (t) => {
  const page = await newPage();
  await signIn(page, base, 'kramer@pendant.test', TEST_PASSWORD, `${ws}/contacts`);
  const row = page.locator('tbody tr', { hasText: 'Jackie' });
  t.match(await row.innerText(), /elaine@pendant\.test/, 'in the contact list');
  await page.goto(`${base}${ws}/contacts/${contactId}`);
  t.match(await page.locator('dl.facts').innerText(), /Owner\s+elaine@pendant\.test/, "on the contact's page");
  await page.goto(`${base}${ws}/deals`);
  t.match(await page.locator('li.deal', { hasText: 'Kramerica' }).innerText(), /elaine@pendant\.test/, 'on the deals board');
  t.notMatch(await page.locator('main').innerText(), /usr_/, 'no bare id');
  await check(t, page, 'console-owner-names');
  await page.context().close();
});

t.test('an administrator who reads no records still opens the Activity page', async (t) => {
  const page = await newPage();
  await signIn(page, base, 'newman@pendant.test', TEST_PASSWORD, `${ws}/activity`);
  t.equal(await page.getByRole('heading', { name: 'Activity', level: 1 }).count(), 1);
  await page.context().close();
  t.same(cspReports, [], 'no CSP violation on any page');
});
