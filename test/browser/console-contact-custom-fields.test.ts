import t from 'tap';
import type { Contact } from '../../shared/contracts/contacts.js';
import type { Event } from '../../shared/contracts/events.js';
import type { ListPage } from '../helpers/api-types.js';
import { consoleBrowser, submitForm } from '../helpers/browser.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * A contact's custom fields on its edit page, in headless Chromium under the pages' own CSP: the
 * current values shown by their labels; only the fields changed sent (one PATCH, its event by the
 * console user), an emptied one cleared, a required one refused on the form with what was typed
 * kept, and a value someone else set meanwhile in a field left alone kept.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Editco', workspace: 'Fields', email: 'erin@editco.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
const api = client(base, await stack.token(wsId, ['contacts:write', 'schema:write', 'events:read']));
for (const definition of [
  { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['Gold', 'Silver'], required: true },
  { object_type: 'contact', key: 'seats', label: 'Seats', type: 'number' },
  { object_type: 'contact', key: 'renews_on', label: 'Renews on', type: 'date' },
  { object_type: 'contact', key: 'vip', label: 'VIP', type: 'boolean' },
  { object_type: 'contact', key: 'lead_source', label: 'Lead source', type: 'text' },
  { object_type: 'contact', key: 'account_code', label: 'Account code', type: 'text', required: true },
]) {
  const defined = await api.post('/v1/custom-fields', definition);
  if (defined.status !== 201) throw new Error(`${definition.key}: ${defined.status}`);
}
const { newPage, cspReports } = await consoleBrowser(t);
const stored = async (id: string) => (await api.get<Contact>(`/v1/contacts/${id}`)).body.custom_fields;

t.test("a contact's custom fields: shown, changed, emptied; a required one cannot be emptied; another's change to a field left alone stands", async (t) => {
  const id = (
    await api.post<{ id: string }>('/v1/contacts', {
      first_name: 'Fiona',
      phone: '+1 415 555 0910',
      custom_fields: { tier: 'Gold', seats: 12.5, renews_on: '2027-03-01', vip: true, lead_source: 'Trade fair', account_code: 'AC-1' },
    })
  ).body.id;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/contacts/${id}`);
  await page.getByRole('link', { name: 'Change this contact' }).click();
  await page.getByRole('heading', { name: 'Change Fiona' }).waitFor();
  await check(t, page, 'console-contact-edit-custom-fields');
  t.equal(await page.getByLabel('Tier').inputValue(), 'Gold', 'the current values, by their labels');
  t.equal(await page.getByLabel('Seats').inputValue(), '12.5');
  t.equal(await page.getByLabel('Renews on').inputValue(), '2027-03-01');
  t.equal(await page.getByLabel('VIP').inputValue(), 'true');
  t.equal(await page.getByLabel('Lead source').inputValue(), 'Trade fair');
  t.equal(await page.getByLabel('Account code').inputValue(), 'AC-1');

  // The browser asks for a required field before sending; sent all the same, the worker refuses clearing it.
  await page.getByLabel('Account code').fill('');
  await page.getByLabel('Seats').fill('14');
  await page.locator('form[method=post][action$="/edit"]').evaluate((form: { noValidate: boolean }) => {
    form.noValidate = true;
  });
  t.equal(await submitForm(page, 'Save changes'), 400, 'a required field emptied is refused');
  t.match(await page.getByRole('alert').innerText(), /^Account code: the field "account_code" is required and cannot be cleared/, 'named by its label');
  t.equal(await page.getByLabel('Account code').getAttribute('aria-invalid'), 'true', 'the field is marked');
  t.match(await page.getByLabel('Account code').getAttribute('aria-describedby'), /^contact-error/, 'and described by the refusal');
  t.equal(await page.getByLabel('Account code').inputValue(), '', 'what was typed is kept');
  t.equal(await page.getByLabel('Seats').inputValue(), '14');
  await check(t, page, 'console-contact-edit-custom-refused');
  t.same(await stored(id), { tier: 'Gold', seats: 12.5, renews_on: '2027-03-01', vip: true, lead_source: 'Trade fair', account_code: 'AC-1' }, 'nothing changed');

  // Someone sets the lead source and the VIP flag meanwhile; this form leaves those fields alone.
  await api.send('PATCH', `/v1/contacts/${id}`, { body: { custom_fields: { lead_source: 'Referral', vip: false } } });
  await page.getByLabel('Account code').fill('AC-2');
  await page.getByLabel('Renews on').fill('');
  await page.getByLabel('Tier').selectOption('Silver');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match(await page.getByRole('status').innerText(), /saved/);
  t.same(await stored(id), { tier: 'Silver', seats: 14, renews_on: null, vip: false, lead_source: 'Referral', account_code: 'AC-2' }, 'the changes, the emptied date cleared, the other changes kept');
  const events = (await api.get<ListPage<Event>>(`/v1/events?object_id=${id}&type=contact.updated`)).body.data;
  t.equal(events.length, 2, "one event for the form's save, one for the other change");
  t.match(events[0], { actor: { kind: 'console_user', id: admin.user.id } });
  t.same(Object.keys(events[0]?.data.previous_attributes?.custom_fields ?? {}).sort(), ['account_code', 'renews_on', 'seats', 'tier'], 'only the fields changed');

  // Saving again without a change sends nothing for the custom fields.
  await page.goto(`${base}${ws}/contacts/${id}/edit`);
  await api.send('PATCH', `/v1/contacts/${id}`, { body: { custom_fields: { seats: 99 } } });
  await page.getByLabel('First name').fill('Fi');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match((await api.get<Contact>(`/v1/contacts/${id}`)).body, { first_name: 'Fi', custom_fields: { seats: 99 } }, 'the number set meanwhile is not overwritten');
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test('a text field holding line breaks: shown with them, left as it is by a save that does not touch it, typed ones stored as LF', async (t) => {
  const id = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Lina', phone: '+1 415 555 0920', custom_fields: { tier: 'Gold', account_code: 'AC-3', lead_source: 'Line one\nLine two' } })).body.id;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/contacts/${id}/edit`);
  await page.getByRole('heading', { name: 'Change Lina' }).waitFor();
  t.equal(await page.getByLabel('Lead source').inputValue(), 'Line one\nLine two', 'shown with its line break');
  await page.getByLabel('First name').fill('Linda');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match((await api.get<Contact>(`/v1/contacts/${id}`)).body, { first_name: 'Linda', custom_fields: { lead_source: 'Line one\nLine two' } }, 'the line break kept');
  const events = (await api.get<ListPage<Event>>(`/v1/events?object_id=${id}&type=contact.updated`)).body.data;
  t.same(events[0]?.data.previous_attributes, { first_name: 'Lina' }, 'only the name sent');

  await page.goto(`${base}${ws}/contacts/${id}/edit`);
  await page.getByLabel('Lead source').fill('A\nB\nC');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.equal((await stored(id)).lead_source, 'A\nB\nC', 'sent by the browser as CRLF, stored as LF');
});

t.test('a select value that is not exactly an option (another case, or none of them) is left as it is by a save that does not touch it', async (t) => {
  const id = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Sela', phone: '+1 415 555 0922', custom_fields: { tier: 'Gold', account_code: 'AC-5' } })).body.id;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/contacts/${id}`);
  for (const [value, name] of [
    ['gold', 'Sel'],
    ['Cafe\u0301', 'Se'],
  ] as const) {
    // Stored as by a write from before options were matched so (no trigger: nothing else changes).
    await stack.db.query(`begin; set local session_replication_role = replica; update contacts set custom_fields = custom_fields || '{"tier": "${value}"}'::jsonb where id = '${id}'; commit;`);
    await page.goto(`${base}${ws}/contacts/${id}/edit`);
    t.equal(await page.getByLabel('Tier').inputValue(), value, `${value}: shown as it is`);
    await page.getByLabel('First name').fill(name);
    t.equal(await submitForm(page, 'Save changes'), 303);
    t.match((await api.get<Contact>(`/v1/contacts/${id}`)).body, { first_name: name, custom_fields: { tier: value } }, `${value}: kept`);
  }
  await page.goto(`${base}${ws}/contacts/${id}/edit`);
  t.equal(await page.locator('#field-tier option:checked').innerText(), 'Cafe\u0301', 'a value naming no option is listed as it is');
});

t.test('a required field added after a contact was saved does not block changing the contact', async (t) => {
  const id = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Rhea', phone: '+1 415 555 0921', custom_fields: { tier: 'Gold', account_code: 'AC-4' } })).body.id;
  for (const definition of [
    { object_type: 'contact', key: 'region', label: 'Region', type: 'select', options: ['North', 'South'], required: true },
    { object_type: 'contact', key: 'sponsor', label: 'Sponsor', type: 'text', required: true },
  ]) t.equal((await api.post('/v1/custom-fields', definition)).status, 201, definition.key);
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/contacts/${id}/edit`);
  await page.getByRole('heading', { name: 'Change Rhea' }).waitFor();
  t.equal(await page.getByLabel('Region').getAttribute('required'), null, 'not demanded of a contact holding none');
  t.equal(await page.getByLabel('Sponsor').getAttribute('required'), null);
  t.equal(await page.locator('#field-region option[value=""]').isDisabled(), false, 'its "Choose" may stay chosen');
  t.equal(await page.getByLabel('Account code').getAttribute('required'), '', 'still demanded where the contact holds a value');
  await page.getByLabel('First name').fill('Rhea B');
  t.ok(await page.locator('form[method=post][action$="/edit"]').evaluate((form: { checkValidity(): boolean }) => form.checkValidity()), 'the browser sends the form');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match((await api.get<Contact>(`/v1/contacts/${id}`)).body, { first_name: 'Rhea B', custom_fields: { region: null, sponsor: null, account_code: 'AC-4' } });
});
