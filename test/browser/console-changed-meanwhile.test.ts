import t from 'tap';
import type { Contact } from '../../shared/contracts/contacts.js';
import type { Deal } from '../../shared/contracts/deals.js';
import { consoleBrowser, submitForm } from '../helpers/browser.js';
import { signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Edit forms in headless Chromium while someone else changes the record: a field the member
 * changed that was changed meanwhile is refused beside it (what was typed kept, the current value
 * named, nothing saved), and saving again sets it knowingly; a change meanwhile to another field
 * gets in nobody's way.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Raceco', workspace: 'Edits', email: 'rae@raceco.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
const api = client(base, await stack.token(wsId, ['contacts:write', 'deals:write', 'schema:write']));
await api.post('/v1/custom-fields', { object_type: 'contact', key: 'lead_source', label: 'Lead source', type: 'text' });
await api.post('/v1/custom-fields', { object_type: 'deal', key: 'region', label: 'Region', type: 'text' });
const { newPage, cspReports } = await consoleBrowser(t);

t.test('contact: a field changed meanwhile is refused beside it; one left alone is no obstacle', async (t) => {
  const contact = (await api.post<Contact>('/v1/contacts', { first_name: 'Ada', last_name: 'Byron', email: 'ada@raceco.test', phone: '+1 415 555 0970', custom_fields: { lead_source: 'Fair' } })).body;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/contacts/${contact.id}/edit`);
  t.equal((await api.send('PATCH', `/v1/contacts/${contact.id}`, { body: { first_name: 'Grace', custom_fields: { lead_source: 'Web' } } })).status, 200, 'someone changes the first name meanwhile');
  await page.getByLabel('First name').fill('Adele');
  await page.getByLabel('E-mail').fill('adele@raceco.test');
  // Before: saved with 200/303, silently replacing Grace.
  t.equal(await submitForm(page, 'Save changes'), 409, 'refused');
  t.match(await page.getByRole('alert').innerText(), /^First name: changed meanwhile by someone else; it is now “Grace” \(it was “Ada” when you opened this form\)\. Nothing was saved/);
  t.equal(await page.getByLabel('First name').getAttribute('aria-invalid'), 'true');
  t.equal(await page.getByLabel('First name').inputValue(), 'Adele', 'what was typed is kept');
  t.equal(await page.getByLabel('E-mail').inputValue(), 'adele@raceco.test');
  t.match((await api.get<Contact>(`/v1/contacts/${contact.id}`)).body, { first_name: 'Grace', email: 'ada@raceco.test' }, 'nothing saved');
  t.equal(await submitForm(page, 'Save changes'), 303, 'saved again, knowing');
  t.match((await api.get<Contact>(`/v1/contacts/${contact.id}`)).body, { first_name: 'Adele', email: 'adele@raceco.test', custom_fields: { lead_source: 'Web' } }, 'the other change to a field left alone stands');

  // A custom field, and a field changed meanwhile that the form leaves alone.
  await page.goto(`${base}${ws}/contacts/${contact.id}/edit`);
  await api.send('PATCH', `/v1/contacts/${contact.id}`, { body: { last_name: 'Lovelace', custom_fields: { lead_source: 'Referral' } } });
  await page.getByLabel('Lead source').fill('Partner');
  t.equal(await submitForm(page, 'Save changes'), 409);
  t.match(await page.getByRole('alert').innerText(), /^Lead source: changed meanwhile by someone else; it is now “Referral” \(it was “Web”/);
  t.equal(await page.getByLabel('Lead source').inputValue(), 'Partner');
  await page.goto(`${base}${ws}/contacts/${contact.id}/edit`);
  await api.send('PATCH', `/v1/contacts/${contact.id}`, { body: { last_name: 'King' } });
  await page.getByLabel('Phone').fill('+1 415 555 0971');
  t.equal(await submitForm(page, 'Save changes'), 303, 'another field changed meanwhile does not block');
  t.match((await api.get<Contact>(`/v1/contacts/${contact.id}`)).body, { last_name: 'King', phone: '+14155550971' });
  t.same(cspReports, [], 'no CSP violation');
});

t.test('deal: a name or custom field changed meanwhile is refused beside it; the amount still is', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Turbine', amount: 100000, currency: 'USD', custom_fields: { region: 'EMEA' } })).body;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/deals/${deal.id}/edit`);
  await api.send('PATCH', `/v1/deals/${deal.id}`, { body: { name: 'Turbine (large)', custom_fields: { region: 'APAC' } } });
  await page.getByLabel('Name').fill('Turbine order');
  await page.getByLabel('Region').fill('LATAM');
  t.equal(await submitForm(page, 'Save changes'), 409, 'refused');
  const alert = await page.getByRole('alert').innerText();
  t.match(alert, /^Name: changed meanwhile by someone else; it is now “Turbine \(large\)” \(it was “Turbine” when you opened this form\)/);
  t.match(alert, /Region: changed meanwhile by someone else; it is now “APAC” \(it was “EMEA”/, 'each field is named');
  t.equal(await page.getByLabel('Name').getAttribute('aria-invalid'), 'true');
  t.equal(await page.getByLabel('Name').inputValue(), 'Turbine order', 'what was typed is kept');
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { name: 'Turbine (large)', custom_fields: { region: 'APAC' } }, 'nothing saved');
  t.equal(await submitForm(page, 'Save changes'), 303, 'saved again, knowing');
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { name: 'Turbine order', custom_fields: { region: 'LATAM' } });

  // Someone changes the amount; this form changes the name only: no obstacle.
  await page.goto(`${base}${ws}/deals/${deal.id}/edit`);
  await api.send('PATCH', `/v1/deals/${deal.id}`, { body: { amount: 250000 } });
  await page.getByLabel('Name').fill('Turbine order 2');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { name: 'Turbine order 2', amount: 250000 });
  t.same(cspReports, [], 'no CSP violation');
});
