import t from 'tap';
import type { WorkspaceSettings } from '../../shared/contracts/workspace-settings.js';
import { collectCspViolations, launchBrowser, submitForm } from '../helpers/browser.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The workspace settings page in headless Chromium: an administrator picks the time zone the
 * workspace's days are read in, and the contacts page's date filters follow it.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Clockwork', workspace: 'Pacific', email: 'tz-admin@clockwork.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
const api = client(base, await stack.token(wsId, ['contacts:write']));
// Born at 07:30 UTC on January 31: still January 30 in Los Angeles.
await stack.db.query(
  `insert into contacts (id, workspace_id, first_name, phone, status, custom_fields, created_at, updated_at)
   values ('con_TZCONSOLE1', $1, 'Night Owl', '+14155550177', 'active', '{}', '2026-01-31T07:30:00Z', '2026-01-31T07:30:00Z')`,
  [wsId],
);

const browser = await launchBrowser();
t.teardown(() => browser.close());
const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
const cspReports: string[] = [];
collectCspViolations(page, cspReports);
await signIn(page, base, admin.user.email, TEST_PASSWORD);

t.test('an administrator sets the time zone, and days are read in it', async (t) => {
  await page.goto(`${base}${ws}/contacts?created_after=2026-01-31`);
  t.match(await page.locator('main').innerText(), /Night Owl/, 'in UTC the contact was created on January 31');

  await page.goto(`${base}${ws}`);
  await page.getByRole('link', { name: 'Change the workspace settings' }).click();
  t.equal(await page.getByLabel('Time zone').inputValue(), 'UTC');
  await check(t, page, 'console-settings');
  await page.getByLabel('Time zone').selectOption('America/Los_Angeles');
  await Promise.all([page.waitForURL(/notice=saved/), page.getByRole('button', { name: 'Save settings' }).click()]);
  t.match(await page.getByRole('status').innerText(), /saved/);
  t.equal(await page.getByLabel('Time zone').inputValue(), 'America/Los_Angeles');
  t.equal((await api.get<WorkspaceSettings>('/v1/workspace')).body.time_zone, 'America/Los_Angeles', 'REST reads the same setting');

  await page.goto(`${base}${ws}/contacts?created_after=2026-01-31`);
  t.notMatch(await page.locator('main').innerText(), /Night Owl/, 'in Los Angeles it was January 30');
  await page.goto(`${base}${ws}/contacts?created_after=2026-01-30&created_before=2026-01-31`);
  t.match(await page.locator('main').innerText(), /Night Owl/);

  await page.goto(`${base}${ws}`);
  t.match(await page.locator('#workspace-time-zone').innerText(), /America\/Los_Angeles/, 'the overview says it');
});

t.test('times are shown in the workspace time zone, so the day shown is the day the filters find', async (t) => {
  // Before, the list said "2026-01-31 07:30 UTC" beside filters that find the contact on January 30.
  await page.goto(`${base}${ws}/contacts?created_after=2026-01-30&created_before=2026-01-31`);
  const row = page.locator('tr', { hasText: 'Night Owl' });
  t.equal(await row.locator('time').innerText(), '2026-01-30 23:30 PST', 'the list: the day and time in Los Angeles, with the zone');
  t.equal(await row.locator('time').getAttribute('datetime'), '2026-01-31T07:30:00.000Z', 'the exact instant stays UTC for machines');
  await row.getByRole('link', { name: 'Night Owl' }).click();
  await page.getByRole('heading', { name: 'Night Owl' }).waitFor();
  t.match(await page.locator('main').innerText(), /2026-01-30 23:30 PST/, "the contact's page too");
  await page.goto(`${base}${ws}/activity`);
  t.match(await page.locator('#object-id-help').innerText(), /Times are in America\/Los_Angeles\./, 'the activity page says which zone its times are in');
  t.notMatch(await page.locator('table').innerText(), /\d{2}:\d{2} UTC/, 'and shows no time in UTC');
});

t.test('an administrator adds a custom field, a refused one kept as typed, and archives and restores it', async (t) => {
  const schema = client(base, await stack.token(wsId, ['schema:read']));
  const fieldsNamed = async (key: string) => (await schema.get<{ data: { key: string; options: string[] | null; archived: boolean }[] }>('/v1/custom-fields?include_archived=true')).body.data.filter((f) => f.key === key);
  await page.goto(`${base}${ws}`);
  await page.getByRole('link', { name: 'custom fields' }).click();
  await page.getByRole('heading', { name: 'Custom fields', level: 1 }).waitFor();
  await check(t, page, 'console-custom-fields');

  await page.getByLabel('Label').fill('Lead source');
  await page.getByLabel('Key', { exact: true }).fill('Lead Source');
  await page.getByLabel('Type').selectOption({ label: 'Choice from a list' });
  await page.getByLabel('Options (choice from a list only)').fill('Web\nEvent\n');
  t.equal(await submitForm(page, 'Add field'), 400);
  t.match(await page.getByRole('alert').innerText(), /^Key: must be lower snake case/, 'named by its label on the page');
  t.equal(await page.getByLabel('Key', { exact: true }).getAttribute('aria-invalid'), 'true', 'and marked');
  t.equal(await page.getByLabel('Label').inputValue(), 'Lead source', 'what was typed is kept');
  t.equal(await page.getByLabel('Type').inputValue(), 'select');
  t.equal(await page.getByLabel('Options (choice from a list only)').inputValue(), 'Web\nEvent\n');
  t.same(await fieldsNamed('lead_source'), [], 'nothing created');

  await page.getByLabel('Key', { exact: true }).fill('lead_source');
  t.equal(await submitForm(page, 'Add field'), 303);
  t.match(await page.getByRole('status').innerText(), /added/);
  t.match(await page.locator('tr', { hasText: 'lead_source' }).innerText(), /Lead source[\s\S]*Contacts[\s\S]*Choice from a list[\s\S]*Web[\s\S]*Event/);
  t.same((await fieldsNamed('lead_source'))[0]?.options, ['Web', 'Event'], 'one option a line, the blank line none');

  await page.getByRole('link', { name: 'Archive Lead source' }).click();
  await page.getByRole('heading', { name: 'Archive the field "Lead source"?' }).waitFor();
  t.equal((await fieldsNamed('lead_source'))[0]?.archived, false, 'nothing archived before the confirmation');
  t.equal(await submitForm(page, 'Archive field'), 303);
  t.match(await page.locator('tr', { hasText: 'lead_source' }).innerText(), /Archived/);
  t.equal((await fieldsNamed('lead_source'))[0]?.archived, true);
  t.equal(await submitForm(page, 'Restore Lead source'), 303);
  t.equal((await fieldsNamed('lead_source'))[0]?.archived, false, 'restored');
});

t.test("an administrator changes a custom field's label, options and required flag; an option records hold stays", async (t) => {
  const schema = client(base, await stack.token(wsId, ['schema:write']));
  type Field = { id: string; key: string; label: string; options: string[] | null; required: boolean };
  const fieldNamed = async (key: string) => (await schema.get<{ data: Field[] }>('/v1/custom-fields?include_archived=true')).body.data.find((f) => f.key === key);
  const before = await fieldNamed('lead_source');
  if (!before) throw new Error('lead_source was not added');
  t.equal((await api.post('/v1/contacts', { first_name: 'Webby', phone: '+14155550178', custom_fields: { lead_source: 'Web' } })).status, 201);
  await page.goto(`${base}${ws}/fields`);
  await page.getByRole('link', { name: 'Change Lead source' }).click();
  await page.getByRole('heading', { name: 'Change the field "Lead source"', level: 1 }).waitFor();
  const options = page.getByLabel('Options', { exact: true });
  t.equal(await options.inputValue(), 'Web\nEvent', 'the options one a line');
  await check(t, page, 'console-custom-field-change');

  await options.fill('Event\nReferral');
  t.equal(await submitForm(page, 'Save changes'), 409, 'leaving out an option a contact holds is refused');
  t.match(await page.getByRole('alert').innerText(), /leaves out "Web" \(1 contact\)/);
  t.equal(await options.getAttribute('aria-invalid'), 'true');
  t.match(await options.getAttribute('aria-describedby'), /field-change-error/);
  t.equal(await options.inputValue(), 'Event\nReferral', 'what was typed is kept');
  await page.getByLabel('Label', { exact: true }).fill(' ');
  await options.fill('Web\nEvent');
  t.equal(await submitForm(page, 'Save changes'), 400);
  t.match(await page.getByRole('alert').innerText(), /^Label: /, 'named by its label on the page');
  t.equal(await page.getByLabel('Label', { exact: true }).getAttribute('aria-invalid'), 'true');
  t.match(await fieldNamed('lead_source'), { label: 'Lead source', options: ['Web', 'Event'], required: false }, 'nothing changed');

  await page.getByLabel('Label', { exact: true }).fill('Source <of lead>');
  await options.fill('Web\nEvent\n\nReferral\n');
  await page.getByLabel(/Required: a record must have a value/).check();
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match(await page.getByRole('status').innerText(), /changed/);
  t.match(await fieldNamed('lead_source'), { label: 'Source <of lead>', options: ['Web', 'Event', 'Referral'], required: true }, 'changed in the API, the blank line no option');
  t.match(await page.locator('tr', { hasText: 'lead_source' }).innerText(), /Source <of lead>[\s\S]*Referral[\s\S]*Required/, 'shown as typed, escaped');
  const posts: string[] = [];
  page.on('request', (request) => void (request.method() === 'POST' && posts.push(request.url())));
  await page.reload();
  page.removeAllListeners('request');
  t.same(posts, [], 'a reload sends nothing again');

  // A field that is no choice from a list has no options to change.
  const text = (await schema.post<Field>('/v1/custom-fields', { object_type: 'deal', key: 'region', label: 'Region', type: 'text' })).body;
  await page.goto(`${base}${ws}/fields/${text.id}`);
  t.equal(await page.getByLabel('Options', { exact: true }).count(), 0, 'no options field');
  await page.getByLabel('Label', { exact: true }).fill('Sales region');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match(await fieldNamed('region'), { label: 'Sales region', options: null, required: false });

  // Someone without the Configuration permission, with a valid CSRF token of their own: refused, nothing changed.
  await stack.addMember(wsId, 'reader@clockwork.test', ['contacts.read'], 'all');
  const forms = await signInToConsole(base, wsId, 'reader@clockwork.test', TEST_PASSWORD);
  t.equal((await forms.post(`/fields/${before.id}`, { label: 'Hijacked' })).status, 403);
  t.equal((await fieldNamed('lead_source'))?.label, 'Source <of lead>');
});

t.test("a token's expiry day starts at midnight in the workspace time zone, as it is then shown", async (t) => {
  await page.goto(`${base}${ws}/tokens`);
  t.match(await page.locator('#token-expiry-help').innerText(), /At 00:00 on that day in America\/Los_Angeles/, 'the help names the zone');
  await page.getByLabel('Name').fill('Summer job');
  await page.locator('input[name=scopes][value="contacts:read"]').check();
  await page.getByLabel('Expires on (optional)').fill('2030-06-01');
  await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Create token' }).click()]);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const tokens = await client(base, await stack.token(wsId, ['tokens:write'])).get<{ data: { name: string; expires_at: string | null }[] }>('/v1/tokens');
  // Before, the day began at 00:00 UTC: 2030-05-31 17:00 in Los Angeles.
  t.equal(tokens.body.data.find((x) => x.name === 'Summer job')?.expires_at, '2030-06-01T07:00:00.000Z', 'midnight in Los Angeles (PDT)');
  await page.goto(`${base}${ws}/tokens`);
  t.match(await page.locator('tr', { hasText: 'Summer job' }).innerText(), /2030-06-01 00:00 PDT/, 'and the list shows the day chosen');
});

t.test('a refused setting names the field as the page labels it, keeps what was typed and changes nothing', async (t) => {
  await page.goto(`${base}${ws}/settings`);
  await page.getByLabel('Default country for phones').fill('ZZ');
  const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Save settings' }).click()]);
  t.equal(response.status(), 400);
  t.match(await page.getByRole('alert').innerText(), /^Default country for phones: is not a country code/, 'not the API\'s default_country');
  t.equal(await page.getByLabel('Default country for phones').inputValue(), 'ZZ');
  t.equal(await page.getByLabel('Default country for phones').getAttribute('aria-invalid'), 'true', 'the field refused is marked');
  t.equal(await page.getByLabel('Default country for phones').getAttribute('aria-describedby'), 'settings-error country-help', 'and the reason is read out when it is reached');
  t.equal(await page.getByLabel('Time zone').getAttribute('aria-invalid'), null, 'the other field is not');
  t.equal((await api.get<WorkspaceSettings>('/v1/workspace')).body.default_country, 'US', 'nothing changed');
  // A filter of the contacts page is named as its label says too.
  await page.goto(`${base}${ws}/contacts?phone=${encodeURIComponent('+1 not a phone')}`);
  t.match(await page.getByRole('alert').innerText(), /^Phone: /);
});

t.test('the settings page ran under its CSP without a violation', async (t) => {
  t.same(cspReports, []);
});
