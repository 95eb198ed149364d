import t from 'tap';
import type { Contact } from '../../shared/contracts/contacts.js';
import type { Deal } from '../../shared/contracts/deals.js';
import type { Event } from '../../shared/contracts/events.js';
import type { Pipeline } from '../../shared/contracts/pipelines.js';
import type { ListPage } from '../helpers/api-types.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { field } from '../helpers/oauth-forms.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The console's edit forms send the values their changed fields were read with, and the worker
 * compares them on the row it locks for the write: of two forms read at once that change one
 * field, exactly one is saved, whatever the timing (no read-then-write gap in the gateway).
 */
const stack = await useStack(t);
const admin = await stack.bootstrap({ org: 'Formco', workspace: 'Races', email: 'fay@formco.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const api = client(stack.baseUrl, await stack.token(wsId, ['contacts:write', 'deals:write', 'events:read']));
const forms = await signInToConsole(stack.baseUrl, wsId, admin.user.email, TEST_PASSWORD);
const events = async (id: string) => (await api.get<ListPage<Event>>(`/v1/events?object_id=${id}`)).body.data.map((e) => e.type);

t.test('contact: two forms read at once changing the first name: one saved, the other refused (409)', async (t) => {
  const contact = (await api.post<Contact>('/v1/contacts', { first_name: 'Ada', phone: '+1 415 555 0980' })).body;
  const form = (first: string) => ({ first_name: first, original_first_name: 'Ada', last_name: '', original_last_name: '', email: '', original_email: '', phone: '+14155550980', original_phone: '+14155550980', status: 'active', original_status: 'active' });
  const answers = await Promise.all(['Adele', 'Ida'].map((name) => forms.post(`/contacts/${contact.id}/edit`, form(name))));
  t.same(answers.map((a) => a.status).sort(), [303, 409]);
  t.same((await events(contact.id)).filter((type) => type === 'contact.updated'), ['contact.updated'], 'one change');
  // The same form sent again after it was saved is no conflict: the contact holds what it sets.
  const saved = (await api.get<Contact>(`/v1/contacts/${contact.id}`)).body.first_name;
  t.equal((await forms.post(`/contacts/${contact.id}/edit`, form(saved))).status, 303);
});

t.test('deal: two forms read at once changing the name: one saved; one changing another field is saved too', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Crane', amount: 1000, currency: 'USD' })).body;
  const form = (name: string, amount = '10.00') => ({ name, original_name: 'Crane', amount, original_amount: '10.00', currency: 'USD', original_currency: 'USD' });
  const answers = await Promise.all([form('Crane A'), form('Crane B'), form('Crane', '20.00')].map((fields) => forms.post(`/deals/${deal.id}/edit`, fields)));
  t.same(answers.map((a) => a.status).sort(), [303, 303, 409], 'the amount change is no conflict with either name');
  t.match((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, { name: /^Crane [AB]$/, amount: 2000 });
});

t.test('deal: moving it to a stage from a page read before someone else moved it is refused (409), not undone', async (t) => {
  const schemaApi = client(stack.baseUrl, await stack.token(wsId, ['schema:read']));
  const pipeline = (await schemaApi.get<ListPage<Pipeline>>('/v1/pipelines')).body.data[0]!;
  const [first, second, third] = pipeline.stages;
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Hoist', pipeline_id: pipeline.id, stage_id: first!.id })).body;
  t.equal((await api.send('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: second!.id } })).status, 200);
  // The page showed the first stage; its form moves to the third.
  const stale = await forms.post(`/deals/${deal.id}/stage`, { stage_id: third!.id, read_stage_id: first!.id });
  t.equal(stale.status, 409);
  t.match(await stale.text(), /someone else moved this deal meanwhile/);
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.stage_id, second!.id, 'the other move stands');
  const current = await forms.post(`/deals/${deal.id}/stage`, { stage_id: third!.id, read_stage_id: second!.id });
  t.equal(current.status, 303);
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.stage_id, third!.id);
});

t.test('contact: custom values no form can give back as stored (blank text, CR line breaks, 1e-21) are edited without a false 409', async (t) => {
  const schemaApi = client(stack.baseUrl, await stack.token(wsId, ['schema:write']));
  for (const [key, type] of [['nickname', 'text'], ['memo', 'text'], ['tiny', 'number']] as const) {
    t.equal((await schemaApi.post('/v1/custom-fields', { object_type: 'contact', key, label: key, type })).status, 201);
  }
  const stored = { nickname: '', memo: 'line one\r\nline two', tiny: 1e-21 };
  const contact = (await api.post<Contact>('/v1/contacts', { first_name: 'Cy', phone: '+1 415 555 0981', custom_fields: stored })).body;
  const html = await (await forms.browser.request(`${stack.baseUrl}/console/w/${wsId}/contacts/${contact.id}/edit`)).text();
  t.equal(field(html, 'original_custom_fields.tiny'), '0.000000000000000000001', 'the number in digits that read back as it');
  const base = { first_name: 'Cy', original_first_name: 'Cy', last_name: '', original_last_name: '', email: '', original_email: '', phone: '+14155550981', original_phone: '+14155550981', status: 'active', original_status: 'active' };
  const read = { 'original_custom_fields.nickname': '', 'original_custom_fields.memo': 'line one\r\nline two', 'original_custom_fields.tiny': field(html, 'original_custom_fields.tiny') };
  const saved = await forms.post(`/contacts/${contact.id}/edit`, { ...base, ...read, 'custom_fields.nickname': 'Cyd', 'custom_fields.memo': 'line one', 'custom_fields.tiny': '2' });
  t.equal(saved.status, 303, await saved.text());
  t.match((await api.get<Contact>(`/v1/contacts/${contact.id}`)).body.custom_fields, { nickname: 'Cyd', memo: 'line one', tiny: 2 });
});

t.test('deal: a stage move from a page read before someone moved the deal to another pipeline is that conflict (409), not a stage refusal', async (t) => {
  const schemaApi = client(stack.baseUrl, await stack.token(wsId, ['schema:read', 'schema:write']));
  const home = (await schemaApi.get<ListPage<Pipeline>>('/v1/pipelines')).body.data[0]!;
  const other = (await schemaApi.post<Pipeline>('/v1/pipelines', { name: 'Renewals', stages: ['Due', 'Renewed'] })).body;
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Winch', pipeline_id: home.id, stage_id: home.stages[0]!.id })).body;
  t.equal((await api.send('PATCH', `/v1/deals/${deal.id}`, { body: { pipeline_id: other.id, stage_id: other.stages[0]!.id } })).status, 200);
  const stale = await forms.post(`/deals/${deal.id}/stage`, { stage_id: home.stages[1]!.id, read_stage_id: home.stages[0]!.id });
  t.equal(stale.status, 409);
  t.match(await stale.text(), /someone else moved this deal meanwhile/);
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.stage_id, other.stages[0]!.id, 'the other move stands');
});

t.test('contact: a custom text value with a lone CR (REST keeps one) is shown in a text area, so a save of another field keeps it', async (t) => {
  const schemaApi = client(stack.baseUrl, await stack.token(wsId, ['schema:write']));
  t.equal((await schemaApi.post('/v1/custom-fields', { object_type: 'contact', key: 'crnote', label: 'crnote', type: 'text' })).status, 201);
  const contact = (await api.post<Contact>('/v1/contacts', { first_name: 'Di', phone: '+1 415 555 0982', custom_fields: { crnote: 'one\rtwo' } })).body;
  const html = await (await forms.browser.request(`${stack.baseUrl}/console/w/${wsId}/contacts/${contact.id}/edit`)).text();
  t.match(html, /<textarea id="field-crnote" name="custom_fields\.crnote"/);
});
