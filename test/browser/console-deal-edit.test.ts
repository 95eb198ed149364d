import t from 'tap';
import type { Deal } from '../../shared/contracts/deals.js';
import type { Event } from '../../shared/contracts/events.js';
import type { ListPage } from '../helpers/api-types.js';
import { consoleBrowser, submitForm } from '../helpers/browser.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { field } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * A deal's own fields changed in the console, in headless Chromium under the pages' own CSP:
 * name, amount in the currency's units, contact (by e-mail or id, as on "New deal") and custom
 * fields, with PATCH /v1/deals/{id}'s operation: one event by the console user, only the fields
 * changed sent, a refusal kept as typed, the same form sent twice one change; offered only to
 * members who may write deals, the contact only to those who may read contacts.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Dealco', workspace: 'Sales', email: 'dana@dealco.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
await stack.addMember(wsId, 'rita@dealco.test', ['contacts.read', 'deals.read'], 'all');
const deanId = await stack.addMember(wsId, 'dean@dealco.test', ['deals.read', 'deals.write'], 'all');
const oliveId = await stack.addMember(wsId, 'olive@dealco.test', ['contacts.read', 'deals.read', 'deals.write'], 'owned');
const api = client(base, await stack.token(wsId, ['contacts:write', 'deals:write', 'schema:write', 'events:read']));
for (const definition of [
  { object_type: 'deal', key: 'region', label: 'Region', type: 'text', required: true },
  { object_type: 'deal', key: 'probability', label: 'Probability', type: 'number' },
]) {
  const defined = await api.post('/v1/custom-fields', definition);
  if (defined.status !== 201) throw new Error(`${definition.key}: ${defined.status}`);
}
const ada = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Ada', email: 'ada@dealco.test', phone: '+1 415 555 0960' })).body.id;
const bob = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Bob', email: 'bob@dealco.test', phone: '+1 415 555 0961' })).body.id;
const { newPage, cspReports } = await consoleBrowser(t);
const updates = async (id: string) => (await api.get<ListPage<Event>>(`/v1/events?object_id=${id}&type=deal.updated`)).body.data;

t.test("a deal changed with its page's form: values shown, a refusal kept as typed, only the changed fields sent, once", async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Engine order', amount: 125050, currency: 'USD', contact_id: ada, custom_fields: { region: 'EMEA', probability: 0.5 } })).body;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/deals/${deal.id}`);
  await page.getByRole('link', { name: 'Change this deal' }).click();
  await page.getByRole('heading', { name: 'Change Engine order' }).waitFor();
  await check(t, page, 'console-deal-edit');
  t.equal(await page.getByLabel('Name').inputValue(), 'Engine order');
  t.equal(await page.getByLabel('Amount').inputValue(), '1250.50', "in the currency's units");
  t.equal(await page.getByLabel('Currency').inputValue(), 'USD');
  t.equal(await page.getByLabel('Contact').inputValue(), ada);
  t.match(await page.locator('#deal-contact-help').innerText(), /The deal is with Ada/);
  t.equal(await page.getByLabel('Region').inputValue(), 'EMEA');
  t.equal(await page.getByLabel('Probability').inputValue(), '0.5');
  t.equal(await page.getByLabel('Owner').inputValue(), '', 'no owner: made with an API token');

  await page.getByLabel('Name').fill('Engine order, revised');
  await page.getByLabel('Amount').fill('1250,50');
  t.equal(await submitForm(page, 'Save changes'), 400, 'a decimal comma is refused, not read as thousands');
  t.match(await page.getByRole('alert').innerText(), /^Amount: must be a number such as 1,250\.50/);
  t.equal(await page.getByLabel('Amount').getAttribute('aria-invalid'), 'true');
  t.equal(await page.getByLabel('Name').inputValue(), 'Engine order, revised', 'what was typed is kept');
  await check(t, page, 'console-deal-edit-refused');
  await page.getByLabel('Contact').fill('nobody@dealco.test');
  await page.getByLabel('Amount').fill('2,000');
  t.equal(await submitForm(page, 'Save changes'), 404, 'an unknown contact');
  t.match(await page.getByRole('alert').innerText(), /no contact you can see is "nobody@dealco.test"/);
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { name: 'Engine order', amount: 125050, contact_id: ada }, 'nothing changed');

  // Someone sets the probability meanwhile; this form leaves it alone.
  await api.send('PATCH', `/v1/deals/${deal.id}`, { body: { custom_fields: { probability: 0.9 } } });
  await page.getByLabel('Contact').fill('BOB@dealco.test');
  await page.getByLabel('Region').fill('APAC');
  await page.getByLabel('Owner').selectOption({ label: 'dean@dealco.test' });
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match(await page.getByRole('status').innerText(), /saved/);
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { name: 'Engine order, revised', amount: 200000, currency: 'USD', contact_id: bob, owner_id: deanId, custom_fields: { region: 'APAC', probability: 0.9 } }, 'the changes, the other one kept');
  const events = await updates(deal.id);
  t.equal(events.length, 2, "the form's save and the other change");
  t.match(events[0], { actor: { kind: 'console_user', id: admin.user.id } });
  t.same(events[0]?.data.previous_attributes, { name: 'Engine order', amount: 125050, contact_id: ada, owner_id: null, custom_fields: { region: 'EMEA' } }, 'only what changed');

  // The same form posted twice (a double click, a resent POST): one change, one event.
  const forms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  const shown = await (await forms.browser.request(`${base}${ws}/deals/${deal.id}/edit`)).text();
  const post = { name: 'Twice', original_name: field(shown, 'original_name'), amount: '2000.00', original_amount: field(shown, 'original_amount'), currency: 'USD', original_currency: 'USD', contact: bob, original_contact: bob };
  t.equal((await forms.post(`/deals/${deal.id}/edit`, post)).status, 303);
  t.equal((await forms.post(`/deals/${deal.id}/edit`, post)).status, 303, 'sent again');
  t.equal((await updates(deal.id)).length, 3, 'one more event, not two');
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.name, 'Twice');

  // Emptying the contact unlinks it.
  await page.goto(`${base}${ws}/deals/${deal.id}/edit`);
  await page.getByLabel('Contact').fill('');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.contact_id, null);
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test('a member who may only read deals gets no link and a 403; one who may not read contacts changes a deal without its contact', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Quiet deal', contact_id: ada, custom_fields: { region: 'EMEA' } })).body;
  const reader = await newPage();
  await signIn(reader, base, 'rita@dealco.test', TEST_PASSWORD, `${ws}/deals/${deal.id}`);
  t.equal(await reader.getByRole('link', { name: 'Change this deal' }).count(), 0, 'no link');
  t.equal((await reader.goto(`${base}${ws}/deals/${deal.id}/edit`))?.status(), 403, 'the form is refused');
  const readerForms = await signInToConsole(base, wsId, 'rita@dealco.test', TEST_PASSWORD);
  t.equal((await readerForms.post(`/deals/${deal.id}/edit`, { name: 'Hijacked', original_name: 'Quiet deal' })).status, 403, 'and its POST');

  const dean = await newPage();
  await signIn(dean, base, 'dean@dealco.test', TEST_PASSWORD, `${ws}/deals/${deal.id}/edit`);
  await dean.getByRole('heading', { name: 'Change Quiet deal' }).waitFor();
  t.equal(await dean.getByLabel('Contact').count(), 0, 'no contact offered');
  await dean.getByLabel('Name').fill('Quiet deal, renamed');
  t.equal(await submitForm(dean, 'Save changes'), 303);
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { name: 'Quiet deal, renamed', contact_id: ada }, 'its contact left as it was');

  // A member who sees only their own records cannot hand a deal on: no owner choice.
  const own = (await api.post<Deal>('/v1/deals', { name: 'Olive deal', owner_id: oliveId, custom_fields: { region: 'EMEA' } })).body;
  const olive = await newPage();
  await signIn(olive, base, 'olive@dealco.test', TEST_PASSWORD, `${ws}/deals/${own.id}/edit`);
  await olive.getByRole('heading', { name: 'Change Olive deal' }).waitFor();
  t.equal(await olive.getByLabel('Owner').count(), 0, 'no owner offered');
  await olive.getByLabel('Amount').fill('10');
  await olive.getByLabel('Currency').fill('eur');
  t.equal(await submitForm(olive, 'Save changes'), 303);
  t.match((await api.get<Deal>(`/v1/deals/${own.id}`)).body, { amount: 1000, currency: 'EUR', owner_id: oliveId }, 'still theirs');
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test('an amount changed meanwhile by someone else is not undone by a form changing only the currency', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Race deal', amount: 100000, currency: 'USD', custom_fields: { region: 'EMEA' } })).body;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/deals/${deal.id}/edit`);
  await page.getByRole('heading', { name: 'Change Race deal' }).waitFor();
  t.equal((await api.send('PATCH', `/v1/deals/${deal.id}`, { body: { amount: 50000000 } })).status, 200, 'someone sets the amount meanwhile');
  await page.getByLabel('Currency').fill('EUR');
  t.equal(await submitForm(page, 'Save changes'), 409, 'refused');
  t.match(await page.getByRole('alert').innerText(), /^Amount: changed meanwhile by someone else; it is now 500000\.00 USD \(it was 1000\.00 USD when you opened this form\)/);
  t.equal(await page.getByLabel('Amount').getAttribute('aria-invalid'), 'true');
  t.equal(await page.getByLabel('Currency').inputValue(), 'EUR', 'what was typed is kept');
  // Before, the amount left alone kept its old text, and saving again reverted the other change after all.
  t.equal(await page.getByLabel('Amount').inputValue(), '500000.00', 'the amount left alone shows its current value');
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { amount: 50000000, currency: 'USD' }, 'nothing changed');
  t.equal(await submitForm(page, 'Save changes'), 303, 'saved again, knowing');
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { amount: 50000000, currency: 'EUR' }, "the other member's amount stands");
});

t.test('an amount change sent twice, or written another way, is no conflict', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Twice deal', amount: 100000, currency: 'USD', custom_fields: { region: 'EMEA' } })).body;
  const forms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  const sent = { name: 'Twice deal', original_name: 'Twice deal', amount: '2000.00', original_amount: '1000.00', currency: 'USD', original_currency: 'USD', 'custom_fields.region': 'EMEA', 'original_custom_fields.region': 'EMEA' };
  t.equal((await forms.post(`/deals/${deal.id}/edit`, sent)).status, 303);
  // Before, the second (a double click) found 2000.00 where the form was read with 1000.00: a 409 saying someone else changed it.
  t.equal((await forms.post(`/deals/${deal.id}/edit`, sent)).status, 303, 'the same form sent again');
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { amount: 200000, currency: 'USD' });
  const retyped = { ...sent, amount: '2,000', original_amount: '2000.00', currency: 'usd' };
  t.equal((await forms.post(`/deals/${deal.id}/edit`, retyped)).status, 303, 'the same amount written another way');
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { amount: 200000, currency: 'USD' });
});

t.test('fields a member may not change, posted all the same, change nothing', async (t) => {
  const own = (await api.post<Deal>('/v1/deals', { name: 'Kept deal', owner_id: oliveId, contact_id: ada, custom_fields: { region: 'EMEA' } })).body;
  // A member who sees only their own records posts another owner.
  const oliveForms = await signInToConsole(base, wsId, 'olive@dealco.test', TEST_PASSWORD);
  t.equal((await oliveForms.post(`/deals/${own.id}/edit`, { name: 'Kept deal 2', original_name: 'Kept deal', owner: deanId, original_owner: oliveId })).status, 303);
  t.match((await api.get<Deal>(`/v1/deals/${own.id}`)).body, { name: 'Kept deal 2', owner_id: oliveId }, 'the owner posted is ignored');
  // A member who may not read contacts posts another contact.
  const deanForms = await signInToConsole(base, wsId, 'dean@dealco.test', TEST_PASSWORD);
  t.equal((await deanForms.post(`/deals/${own.id}/edit`, { name: 'Kept deal 3', original_name: 'Kept deal 2', contact: bob, original_contact: ada })).status, 303);
  t.match((await api.get<Deal>(`/v1/deals/${own.id}`)).body, { name: 'Kept deal 3', contact_id: ada, owner_id: oliveId }, 'the contact posted is ignored');
});
