import t from 'tap';
import type { Contact } from '../../shared/contracts/contacts.js';
import type { Deal } from '../../shared/contracts/deals.js';
import type { Event } from '../../shared/contracts/events.js';
import type { Pipeline } from '../../shared/contracts/pipelines.js';
import type { ListPage } from '../helpers/api-types.js';
import { consoleBrowser, submitForm } from '../helpers/browser.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { check, signIn } from '../helpers/console-pages.js';
import { field } from '../helpers/oauth-forms.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Records created in the console, in headless Chromium under the pages' own CSP: a new contact
 * from the Contacts page (POST /v1/contacts' operation, its event recorded once with the
 * console user as actor; a refusal answered on the form, what was typed kept, nothing created;
 * a form sent twice creating one), offered only to members who may write contacts, and owned
 * by an `owned` member who creates it; a new deal from the Deals page likewise, in the pipeline
 * and stage chosen, its amount typed in the currency's units.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Newco', workspace: 'Sales', email: 'nina@newco.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
await stack.addMember(wsId, 'rick@newco.test', ['contacts.read', 'deals.read'], 'all');
const olgaId = await stack.addMember(wsId, 'olga@newco.test', ['contacts.read', 'contacts.write', 'deals.read', 'deals.write'], 'owned');
const api = client(base, await stack.token(wsId, ['contacts:write', 'deals:write', 'schema:write', 'events:read']));
const renewals = (await api.post<Pipeline>('/v1/pipelines', { name: 'Renewals', stages: ['Due', 'Quoted', 'Renewed'] })).body;

const { newPage, cspReports } = await consoleBrowser(t);

const contactsNamed = async (firstName: string) => (await api.get<ListPage<Contact>>(`/v1/contacts?q=${encodeURIComponent(firstName)}`)).body.data;
const createdEvents = async (id: string, type = 'contact.created') => (await api.get<ListPage<Event>>(`/v1/events?object_id=${id}&type=${type}`)).body.data;
const dealsNamed = async (name: string) => (await api.get<ListPage<Deal>>(`/v1/deals?q=${encodeURIComponent(name)}`)).body.data;

t.test('a new contact from the Contacts page: a refusal kept as typed, then created once, by the console user', async (t) => {
  const taken = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Taken', phone: '+1 415 555 0800' })).body.id;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/contacts`);
  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByRole('heading', { name: 'New contact' }).waitFor();
  await check(t, page, 'console-contact-new');

  await page.getByLabel('First name').fill('Petra');
  await page.getByLabel('Last name').fill('Novak');
  await page.getByLabel('E-mail').fill('petra@newco.test');
  await page.getByLabel('Phone').fill('12');
  t.equal(await submitForm(page, 'Create contact'), 400, 'a phone that is none is refused');
  t.match(await page.getByRole('alert').innerText(), /^Phone: /, 'named by its label');
  t.equal(await page.getByLabel('Phone').getAttribute('aria-invalid'), 'true', 'the phone is marked');
  t.equal(await page.getByLabel('Phone').getAttribute('aria-describedby'), 'contact-error contact-phone-help', 'and described by the refusal');
  t.equal(await page.getByLabel('Last name').inputValue(), 'Novak', 'what was typed is kept');
  t.equal(await page.getByLabel('E-mail').inputValue(), 'petra@newco.test');
  t.equal(await page.getByLabel('Phone').inputValue(), '12');
  await check(t, page, 'console-contact-new-refused');

  await page.getByLabel('Phone').fill('(415) 555-0800');
  t.equal(await submitForm(page, 'Create contact'), 409, "another contact's phone is refused");
  t.match(await page.getByRole('alert').innerText(), new RegExp(`already exists in this workspace: ${taken}`));
  t.equal(await page.getByRole('alert').getByRole('link', { name: 'Open that contact' }).getAttribute('href'), `${ws}/contacts/${taken}`);
  t.same(await contactsNamed('Petra'), [], 'nothing created');

  await page.getByLabel('Phone').fill('(415) 555-0801');
  t.equal(await submitForm(page, 'Create contact'), 303);
  const [created, ...others] = await contactsNamed('Petra');
  t.same(others, [], 'one contact');
  t.match(created, { first_name: 'Petra', last_name: 'Novak', email: 'petra@newco.test', phone: '+14155550801', status: 'active', owner_id: admin.user.id });
  t.equal(new URL(page.url()).pathname, `${ws}/contacts/${created?.id ?? ''}`, "on the new contact's page");
  t.match(await page.getByRole('status').innerText(), /created/);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Petra Novak');
  const events = await createdEvents(created?.id ?? '');
  t.equal(events.length, 1, 'one contact.created event');
  t.match(events[0]?.actor, { kind: 'console_user', name: admin.user.email });

  // Only the first name and phone are required: blank last name and e-mail are none, not "".
  await page.goto(`${base}${ws}/contacts/new`);
  await page.getByLabel('First name').fill('Quentin');
  await page.getByLabel('Phone').fill('415 555 0802');
  t.equal(await submitForm(page, 'Create contact'), 303);
  t.match((await contactsNamed('Quentin'))[0], { last_name: null, email: null });
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test('the same form sent twice (a double click, a resent POST) creates one contact', async (t) => {
  const forms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  const key = field(await (await forms.browser.request(`${base}${ws}/contacts/new`)).text(), 'idempotency_key');
  const fields = { idempotency_key: key, first_name: 'Twice', last_name: '', email: '', phone: '415 555 0803' };
  const [one, two] = await Promise.all([forms.post('/contacts/new', fields), forms.post('/contacts/new', fields)]);
  t.equal(one.status, 303);
  t.equal(two.status, 303);
  t.equal(one.headers.get('location'), two.headers.get('location'), "both lead to the one contact's page");
  const created = await contactsNamed('Twice');
  t.equal(created.length, 1, 'one contact');
  t.equal((await createdEvents(created[0]?.id ?? '')).length, 1, 'and one event');
});

t.test('a form sent again from the history with other values gets a new key and says so; sent then, it creates another', async (t) => {
  // Before, the key's reuse with other values was a page saying "Use a new key", and what was typed was lost.
  const forms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  const key = field(await (await forms.browser.request(`${base}${ws}/contacts/new`)).text(), 'idempotency_key');
  const first = await forms.post('/contacts/new', { idempotency_key: key, first_name: 'Hist', last_name: 'One', email: '', phone: '415 555 0811' });
  t.equal(first.status, 303);
  const edited = { idempotency_key: key, first_name: 'Hist', last_name: 'Two', email: '', phone: '415 555 0812' };
  const again = await forms.post('/contacts/new', edited);
  t.equal(again.status, 409);
  const page = await again.text();
  t.match(page, /This form was sent before with other values, and that record was created/);
  t.match(page, /value="Two"/, 'what was typed is kept');
  const fresh = field(page, 'idempotency_key');
  t.not(fresh, key, 'with a new key');
  t.equal((await forms.post('/contacts/new', { ...edited, idempotency_key: fresh })).status, 303, 'sent with it, created');
  t.same((await contactsNamed('Hist')).map((c) => c.last_name).sort(), ['One', 'Two']);
});

t.test('a new deal whose stage was archived meanwhile comes back with no stage chosen, not the first of another pipeline', async (t) => {
  const spare = (await api.post<Pipeline>('/v1/pipelines', { name: 'Spare', stages: ['Kept', 'Gone'] })).body;
  const gone = spare.stages[1]!;
  const forms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  const key = field(await (await forms.browser.request(`${base}${ws}/deals/new?pipeline=${spare.id}`)).text(), 'idempotency_key');
  t.equal((await api.send('DELETE', `/v1/pipelines/${spare.id}/stages/${gone.id}`)).status, 200, 'archived after the form was read');
  const refused = await forms.post('/deals/new', { idempotency_key: key, name: 'Late deal', amount: '', currency: '', stage_id: gone.id });
  t.equal(refused.status, 400);
  const page = await refused.text();
  t.match(page, /<option value="" selected disabled>Choose a stage<\/option>/, 'a stage is to be chosen again');
  t.match(page, /<select id="deal-stage" name="stage_id" required/, 'and one must be');
  t.same(await dealsNamed('Late deal'), [], 'nothing created');
});

t.test('a member who may only read contacts gets no link, and the form and its POST are refused', async (t) => {
  const page = await newPage();
  await signIn(page, base, 'rick@newco.test', TEST_PASSWORD, `${ws}/contacts`);
  await page.getByRole('heading', { name: 'Contacts' }).waitFor();
  t.equal(await page.getByRole('link', { name: 'New contact' }).count(), 0, 'no link');
  t.equal((await page.goto(`${base}${ws}/contacts/new`))?.status(), 403, 'the form is refused');
  const forms = await signInToConsole(base, wsId, 'rick@newco.test', TEST_PASSWORD);
  t.equal((await forms.post('/contacts/new', { first_name: 'Sneaky', phone: '415 555 0804' })).status, 403, 'and so is its POST');
  t.same(await contactsNamed('Sneaky'), [], 'nothing created');
});

t.test('a member who sees only their own contacts owns the one they create, and finds it in their list', async (t) => {
  const page = await newPage();
  await signIn(page, base, 'olga@newco.test', TEST_PASSWORD, `${ws}/contacts/new`);
  await page.getByLabel('First name').fill('Owned');
  await page.getByLabel('Phone').fill('415 555 0805');
  t.equal(await submitForm(page, 'Create contact'), 303);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Owned', 'they see it');
  t.equal((await contactsNamed('Owned'))[0]?.owner_id, olgaId, 'and own it');
  await page.goto(`${base}${ws}/contacts`);
  t.match(await page.getByRole('table', { name: 'Contacts' }).innerText(), /Owned/, 'it is in their list');
});

t.test('on a phone (390 px) the new contact and deal forms do not scroll sideways', async (t) => {
  const page = await newPage({ viewport: { width: 390, height: 800 } });
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/contacts/new`);
  await page.getByRole('heading', { name: 'New contact' }).waitFor();
  t.equal(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'no sideways scroll');
  await page.goto(`${base}${ws}/contacts`);
  t.equal(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'nor on the list with its new link');
  await page.goto(`${base}${ws}/deals/new`);
  await page.getByRole('heading', { name: 'New deal' }).waitFor();
  t.equal(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, 'nor the new deal form');
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test('a new deal from the Deals page: in the pipeline shown, a refused amount kept as typed, then created once', async (t) => {
  const [due, quoted] = renewals.stages;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/deals?pipeline=${renewals.id}`);
  await page.getByRole('link', { name: 'New deal' }).click();
  await page.getByRole('heading', { name: 'New deal' }).waitFor();
  const stage = page.getByLabel('Pipeline and stage');
  t.equal(await stage.inputValue(), due?.id, 'the first stage of the pipeline the Deals page showed');
  await check(t, page, 'console-deal-new');

  await page.getByLabel('Name').fill('Renewal 2027');
  await page.getByLabel('Amount').fill('1,250.505');
  await page.getByLabel('Currency').fill('usd');
  await stage.selectOption(quoted?.id ?? '');
  t.equal(await submitForm(page, 'Create deal'), 400, 'three decimals in USD are refused, not rounded');
  t.match(await page.getByRole('alert').innerText(), /^Amount: must be a number such as 1,250\.50, with a dot before at most 2 decimals/);
  t.equal(await page.getByLabel('Amount').getAttribute('aria-invalid'), 'true', 'the amount is marked');
  t.equal(await page.getByLabel('Name').inputValue(), 'Renewal 2027', 'what was typed is kept');
  t.equal(await page.getByLabel('Amount').inputValue(), '1,250.505');
  t.equal(await page.getByLabel('Pipeline and stage').inputValue(), quoted?.id, 'the stage chosen too');

  await page.getByLabel('Amount').fill('1,250.50');
  await page.getByLabel('Currency').fill('XYZ');
  t.equal(await submitForm(page, 'Create deal'), 400, 'a currency that is none is refused');
  t.match(await page.getByRole('alert').innerText(), /^Currency: must be an active ISO 4217 currency code/);
  t.equal(await page.getByLabel('Currency').getAttribute('aria-invalid'), 'true');
  await check(t, page, 'console-deal-new-refused');
  t.same(await dealsNamed('Renewal'), [], 'nothing created');

  await page.getByLabel('Currency').fill('usd');
  t.equal(await submitForm(page, 'Create deal'), 303);
  const [created, ...others] = await dealsNamed('Renewal');
  t.same(others, [], 'one deal');
  t.match(created, { name: 'Renewal 2027', amount: 125050, currency: 'USD', pipeline_id: renewals.id, stage_id: quoted?.id, owner_id: admin.user.id });
  t.equal(new URL(page.url()).pathname, `${ws}/deals/${created?.id ?? ''}`, "on the new deal's page");
  t.match(await page.getByRole('status').innerText(), /created/);
  const events = await createdEvents(created?.id ?? '', 'deal.created');
  t.equal(events.length, 1, 'one deal.created event');
  t.match(events[0]?.actor, { kind: 'console_user', name: admin.user.email });

  // From the Deals page of the default pipeline: a name alone goes to its first stage.
  await page.goto(`${base}${ws}/deals/new`);
  await page.getByLabel('Name').fill('Plain deal');
  t.equal(await submitForm(page, 'Create deal'), 303);
  const plain = (await dealsNamed('Plain'))[0];
  t.match(plain, { amount: null, currency: null });
  t.not(plain?.pipeline_id, renewals.id, 'in the default pipeline');
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test('deals: a member who may only read gets no link and a 403; an owned member owns the deal they create', async (t) => {
  const reader = await newPage();
  await signIn(reader, base, 'rick@newco.test', TEST_PASSWORD, `${ws}/deals`);
  t.equal(await reader.getByRole('link', { name: 'New deal' }).count(), 0, 'no link');
  t.equal((await reader.goto(`${base}${ws}/deals/new`))?.status(), 403, 'the form is refused');
  const forms = await signInToConsole(base, wsId, 'rick@newco.test', TEST_PASSWORD);
  t.equal((await forms.post('/deals/new', { name: 'Sneaky deal' })).status, 403, 'and so is its POST');
  t.same(await dealsNamed('Sneaky'), [], 'nothing created');

  const owner = await newPage();
  await signIn(owner, base, 'olga@newco.test', TEST_PASSWORD, `${ws}/deals/new`);
  await owner.getByLabel('Name').fill('Olga deal');
  t.equal(await submitForm(owner, 'Create deal'), 303);
  t.equal(await owner.getByRole('heading', { level: 1 }).innerText(), 'Olga deal', 'they see it');
  t.equal((await dealsNamed('Olga'))[0]?.owner_id, olgaId, 'and own it');
});

t.test("custom fields of every type on both forms: a workspace's required ones filled, a refused value kept and marked, values stored as REST sends them", async (t) => {
  // Its own workspace: required fields would refuse the other tests' records.
  const fieldco = await stack.bootstrap({ org: 'Fieldco', workspace: 'Fields', email: 'fay@fieldco.test', defaultCountry: 'US' });
  const fws = `/console/w/${fieldco.workspace.id}`;
  const fapi = client(base, await stack.token(fieldco.workspace.id, ['contacts:write', 'deals:write', 'schema:write']));
  for (const definition of [
    { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['Gold', 'Silver'], required: true },
    { object_type: 'contact', key: 'seats', label: 'Seats', type: 'number' },
    { object_type: 'contact', key: 'renews_on', label: 'Renews on', type: 'date' },
    { object_type: 'contact', key: 'vip', label: 'VIP', type: 'boolean' },
    { object_type: 'contact', key: 'lead_source', label: 'Lead source', type: 'text' },
    { object_type: 'deal', key: 'region', label: 'Region', type: 'text', required: true },
    { object_type: 'deal', key: 'probability', label: 'Probability', type: 'number' },
    { object_type: 'deal', key: 'signed', label: 'Signed', type: 'boolean', required: true },
  ]) {
    t.equal((await fapi.post('/v1/custom-fields', definition)).status, 201, `${definition.key} defined`);
  }
  const contactsOf = async (q: string) => (await fapi.get<ListPage<Contact>>(`/v1/contacts?q=${encodeURIComponent(q)}`)).body.data;
  const dealsOf = async (q: string) => (await fapi.get<ListPage<Deal>>(`/v1/deals?q=${encodeURIComponent(q)}`)).body.data;

  const page = await newPage();
  await signIn(page, base, fieldco.user.email, TEST_PASSWORD, `${fws}/contacts/new`);
  await page.getByRole('heading', { name: 'New contact' }).waitFor();
  await check(t, page, 'console-contact-new-custom-fields');
  await page.getByLabel('First name').fill('Fiona');
  await page.getByLabel('Phone').fill('415 555 0900');
  await page.getByLabel('Tier').selectOption('Gold');
  await page.getByLabel('Seats').fill('1,5');
  await page.getByLabel('Renews on').fill('2027-03-01');
  await page.getByLabel('VIP').selectOption('Yes');
  await page.getByLabel('Lead source').fill('Trade fair');
  t.equal(await submitForm(page, 'Create contact'), 400, 'a number with a comma is refused, not guessed at');
  t.match(await page.getByRole('alert').innerText(), /^Seats: must be a number such as 1,250 or -12\.5, with a dot before decimals/, 'named by its label');
  t.equal(await page.getByLabel('Seats').getAttribute('aria-invalid'), 'true', 'the field is marked');
  t.match(await page.getByLabel('Seats').getAttribute('aria-describedby'), /^contact-error /, 'and described by the refusal');
  t.equal(await page.getByLabel('Seats').inputValue(), '1,5', 'what was typed is kept');
  t.equal(await page.getByLabel('Tier').inputValue(), 'Gold');
  t.equal(await page.getByLabel('Renews on').inputValue(), '2027-03-01');
  t.equal(await page.getByLabel('VIP').inputValue(), 'true');
  t.equal(await page.getByLabel('Lead source').inputValue(), 'Trade fair');
  await check(t, page, 'console-contact-new-custom-refused');
  t.same(await contactsOf('Fiona'), [], 'nothing created');

  await page.getByLabel('Seats').fill('12');
  t.equal(await submitForm(page, 'Create contact'), 303);
  const [fiona] = await contactsOf('Fiona');
  t.same(fiona?.custom_fields, { tier: 'Gold', seats: 12, renews_on: '2027-03-01', vip: true, lead_source: 'Trade fair' }, 'a number as a number, yes as true, a date as YYYY-MM-DD');

  // The browser asks for the required list before sending; sent without it all the same, the worker's refusal is shown there.
  const forms = await signInToConsole(base, fieldco.workspace.id, fieldco.user.email, TEST_PASSWORD);
  const refused = await forms.post('/contacts/new', { first_name: 'Noah', phone: '415 555 0901', 'custom_fields.seats': '3', 'custom_fields.vip': '' });
  t.equal(refused.status, 400, 'a required field left empty is refused');
  const refusedPage = await refused.text();
  t.match(refusedPage, /Tier: the field &quot;tier&quot; is required/);
  t.match(refusedPage, /<select id="field-tier" name="custom_fields.tier" required aria-invalid="true"/, 'and marked');
  t.match(refusedPage, /name="custom_fields.seats"[^>]*value="3"|value="3"[^>]*name="custom_fields.seats"/, 'the other values kept');
  t.same(await contactsOf('Noah'), [], 'nothing created');

  await page.goto(`${base}${fws}/deals/new`);
  await page.getByRole('heading', { name: 'New deal' }).waitFor();
  await check(t, page, 'console-deal-new-custom-fields');
  await page.getByLabel('Name').fill('Fieldco expansion');
  await page.getByLabel('Region').fill('EMEA');
  await page.getByLabel('Signed').selectOption('No');
  await page.getByLabel('Probability').fill('a quarter');
  t.equal(await submitForm(page, 'Create deal'), 400);
  t.match(await page.getByRole('alert').innerText(), /^Probability: must be a number/);
  t.equal(await page.getByLabel('Probability').getAttribute('aria-invalid'), 'true');
  t.equal(await page.getByLabel('Region').inputValue(), 'EMEA', 'what was typed is kept');
  t.equal(await page.getByLabel('Signed').inputValue(), 'false');
  t.same(await dealsOf('Fieldco'), [], 'nothing created');
  await page.getByLabel('Probability').fill('0.25');
  t.equal(await submitForm(page, 'Create deal'), 303);
  t.same((await dealsOf('Fieldco'))[0]?.custom_fields, { region: 'EMEA', probability: 0.25, signed: false }, 'no as false');
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test("a new deal's contact: preset from the contact's page, or typed as an e-mail or id; one the member may not see is refused as unknown", async (t) => {
  const linka = (await api.post<Contact>('/v1/contacts', { first_name: 'Linka', last_name: 'Contact', email: 'linka@newco.test', phone: '415 555 0820' })).body;
  const page = await newPage();
  await signIn(page, base, admin.user.email, TEST_PASSWORD, `${ws}/contacts/${linka.id}`);
  await page.getByRole('link', { name: 'New deal with this contact' }).click();
  await page.getByRole('heading', { name: 'New deal' }).waitFor();
  t.equal(await page.getByLabel('Contact').inputValue(), linka.id, 'the contact preset');
  t.match(await page.locator('#deal-contact-help').innerText(), /^Linka Contact, from their page/, 'and named');
  await check(t, page, 'console-deal-new-contact');
  await page.getByLabel('Name').fill('Linked from page');
  t.equal(await submitForm(page, 'Create deal'), 303);
  t.equal((await dealsNamed('Linked from page'))[0]?.contact_id, linka.id, 'the deal is with the contact');
  t.equal(await page.getByRole('link', { name: 'Linka Contact' }).getAttribute('href'), `${ws}/contacts/${linka.id}`, "its page links the contact");

  await page.goto(`${base}${ws}/deals/new`);
  await page.getByLabel('Name').fill('Linked by mail');
  await page.getByLabel('Contact').fill('nobody@newco.test');
  t.equal(await submitForm(page, 'Create deal'), 404, 'an e-mail no contact has is refused');
  t.match(await page.getByRole('alert').innerText(), /^Contact: no contact you can see is "nobody@newco\.test"\. Give the e-mail address or the id/);
  t.equal(await page.getByLabel('Contact').getAttribute('aria-invalid'), 'true', 'the field is marked');
  t.equal(await page.getByLabel('Contact').inputValue(), 'nobody@newco.test', 'what was typed is kept');
  t.equal(await page.getByLabel('Name').inputValue(), 'Linked by mail');
  await check(t, page, 'console-deal-new-contact-refused');
  await page.getByLabel('Contact').fill('con_00000000000000000000000000');
  t.equal(await submitForm(page, 'Create deal'), 404, 'and so is an id no contact has');
  t.match(await page.getByRole('alert').innerText(), /^Contact: no contact you can see is "con_0+"/);
  t.same(await dealsNamed('Linked by mail'), [], 'nothing created');
  await page.getByLabel('Contact').fill(' LINKA@newco.test ');
  t.equal(await submitForm(page, 'Create deal'), 303, 'an e-mail a contact has, in any case');
  t.equal((await dealsNamed('Linked by mail'))[0]?.contact_id, linka.id);

  await api.post('/v1/contacts', { first_name: 'Twin', last_name: 'One', email: 'twins@newco.test', phone: '415 555 0821' });
  await api.post('/v1/contacts', { first_name: 'Twin', last_name: 'Two', email: 'twins@newco.test', phone: '415 555 0822' });
  const forms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  const twins = await forms.post('/deals/new', { name: 'Twin deal', contact: 'twins@newco.test' });
  t.equal(twins.status, 400, 'an e-mail two contacts have is refused');
  t.match(await twins.text(), /Contact: more than one contact you can see has this e-mail address; give the id/);
  t.same(await dealsNamed('Twin deal'), [], 'nothing created');
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test("an `owned` member cannot link, or learn of, another owner's contact; one who may not read contacts links none", async (t) => {
  const hidden = (await api.post<Contact>('/v1/contacts', { first_name: 'Hidden', email: 'hidden@newco.test', phone: '415 555 0830' })).body;
  const own = (await api.post<Contact>('/v1/contacts', { first_name: 'Olgas', email: 'olgas@newco.test', phone: '415 555 0831', owner_id: olgaId })).body;
  const forms = await signInToConsole(base, wsId, 'olga@newco.test', TEST_PASSWORD);
  const preset = await (await forms.browser.request(`${base}${ws}/deals/new?contact=${hidden.id}`)).text();
  t.match(preset, /<input id="deal-contact" name="contact" type="text" autocomplete="off" value=""/, "a link with another owner's contact presets nothing");
  t.notMatch(preset, /Hidden/, 'and names nothing');
  for (const typed of [hidden.id, 'hidden@newco.test']) {
    const refused = await forms.post('/deals/new', { name: 'Olga hidden deal', contact: typed });
    t.equal(refused.status, 404, `${typed}: refused`);
    t.match(await refused.text(), `Contact: no contact you can see is &quot;${typed}&quot;`, 'as a contact that does not exist');
  }
  t.same(await dealsNamed('Olga hidden deal'), [], 'nothing created');
  t.equal((await forms.post('/deals/new', { name: 'Olga own deal', contact: 'olgas@newco.test' })).status, 303, 'their own contact is linked');
  t.equal((await dealsNamed('Olga own deal'))[0]?.contact_id, own.id);

  await stack.addMember(wsId, 'dora@newco.test', ['deals.read', 'deals.write'], 'all');
  const dora = await signInToConsole(base, wsId, 'dora@newco.test', TEST_PASSWORD);
  const form = await (await dora.browser.request(`${base}${ws}/deals/new?contact=${hidden.id}`)).text();
  t.notMatch(form, /name="contact"/, 'a member who may not read contacts is offered no contact');
  const refused = await dora.post('/deals/new', { name: 'Dora deal', contact: hidden.id });
  t.equal(refused.status, 404, 'and a contact sent all the same is refused as unknown');
  t.match(await refused.text(), `Contact: no contact you can see is &quot;${hidden.id}&quot;`);
  t.same(await dealsNamed('Dora deal'), [], 'nothing created');
});

t.test('without the write permission both forms and their POSTs are refused and create nothing: without reading either, as pages that are not there; with it taken away after the form was read, too', async (t) => {
  const fields = (key: string, name: string) => ({ idempotency_key: key, first_name: name, phone: '415 555 0840', name, amount: '', currency: '', stage_id: renewals.stages[0]?.id ?? '' });
  const keyOf = async (forms: Awaited<ReturnType<typeof signInToConsole>>, path: string) => field(await (await forms.browser.request(`${base}${ws}${path}`)).text(), 'idempotency_key');

  await stack.addMember(wsId, 'dana@newco.test', ['deals.read', 'deals.write'], 'all');
  const dana = await signInToConsole(base, wsId, 'dana@newco.test', TEST_PASSWORD);
  t.equal((await dana.browser.request(`${base}${ws}/contacts/new`)).status, 404, 'a member who may not read contacts: no New contact form');
  t.equal((await dana.post('/contacts/new', fields('', 'Dana contact'))).status, 404, 'nor its POST');
  t.same(await contactsNamed('Dana'), [], 'nothing created');

  await stack.addMember(wsId, 'carl@newco.test', ['contacts.read', 'contacts.write'], 'all');
  const carl = await signInToConsole(base, wsId, 'carl@newco.test', TEST_PASSWORD);
  t.equal((await carl.browser.request(`${base}${ws}/deals/new`)).status, 404, 'a member who may not read deals: no New deal form');
  t.equal((await carl.post('/deals/new', fields('', 'Carl deal'))).status, 404, 'nor its POST');
  t.same(await dealsNamed('Carl deal'), [], 'nothing created');

  const wendyId = await stack.addMember(wsId, 'wendy@newco.test', ['contacts.read', 'contacts.write', 'deals.read', 'deals.write'], 'all');
  const wendy = await signInToConsole(base, wsId, 'wendy@newco.test', TEST_PASSWORD);
  const contactKey = await keyOf(wendy, '/contacts/new');
  const dealKey = await keyOf(wendy, '/deals/new');
  const adminForms = await signInToConsole(base, wsId, admin.user.email, TEST_PASSWORD);
  t.equal((await adminForms.post(`/members/${wendyId}`, { permissions: ['contacts.read', 'deals.read'], visibility: 'all' })).status, 303, 'write taken away');
  const contact = await wendy.post('/contacts/new', fields(contactKey, 'Wendy contact'));
  t.equal(contact.status, 403, 'the contact form read before is refused');
  t.match(await contact.text(), /let you read contacts, not add them/);
  const deal = await wendy.post('/deals/new', fields(dealKey, 'Wendy deal'));
  t.equal(deal.status, 403, 'and so is the deal form');
  t.match(await deal.text(), /let you read deals, not add them/);
  t.equal((await wendy.browser.request(`${base}${ws}/deals/new`)).status, 403, 'and the forms themselves now');
  t.same(await contactsNamed('Wendy'), [], 'no contact created');
  t.same(await dealsNamed('Wendy deal'), [], 'no deal created');
});
