import t from 'tap';
import { whileHeld } from '../helpers/held-lock.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Contact, Deal, ErrorBody, Pipeline, Stage } from '../helpers/api-types.js';

/** CRUD round trips for every resource of the CRM model, and isolation between workspaces. */

const stack = await useStack(t);

const ALL = ['contacts:write', 'deals:write', 'schema:write', 'tokens:write'];
const a = await stack.bootstrap({ defaultCountry: 'US' });
const b = await stack.bootstrap({ defaultCountry: 'GB' });
const apiA = client(stack.baseUrl, await stack.token(a.workspace.id, ALL));
const apiB = client(stack.baseUrl, await stack.token(b.workspace.id, ALL));

t.test('contacts: get, patch (phone re-normalised and still unique), delete archives', async (t) => {
  const ada = (await apiA.post<Contact>('/v1/contacts', { first_name: 'Ada', phone: '+1 415 555 0101', email: 'ada@example.com' })).body;
  const bob = (await apiA.post<Contact>('/v1/contacts', { first_name: 'Bob', phone: '+1 415 555 0102' })).body;

  const got = await apiA.get<Contact>(`/v1/contacts/${ada.id}`);
  t.equal(got.status, 200);
  t.same(got.body, ada);

  const patched = await apiA.send<Contact>('PATCH', `/v1/contacts/${ada.id}`, { body: { last_name: 'Lovelace', phone: '(415) 555-0111', email: null } });
  t.equal(patched.status, 200);
  t.match(patched.body, { first_name: 'Ada', last_name: 'Lovelace', phone: '+14155550111', email: null });
  t.ok(patched.body.updated_at > ada.updated_at, 'updated_at moves');

  const clash = await apiA.send<ErrorBody & { error: { existing_id: string } }>('PATCH', `/v1/contacts/${bob.id}`, { body: { phone: '415.555.0111' } });
  t.equal(clash.status, 409, 'a phone written another way still collides');
  t.equal(clash.body.error.code, 'phone_taken');
  t.equal(clash.body.error.existing_id, ada.id);
  t.equal((await apiA.get<Contact>(`/v1/contacts/${bob.id}`)).body.phone, '+14155550102', 'the failed PATCH changed nothing');

  for (const [body, param] of [
    [{ phone: 'nope' }, 'phone'],
    [{ first_name: '' }, 'first_name'],
    [{ nickname: 'x' }, 'nickname'],
    [{ status: 'deleted' }, 'status'],
    [{ owner_id: 'usr_nobody' }, 'owner_id'],
  ] as const) {
    const res = await apiA.send<ErrorBody>('PATCH', `/v1/contacts/${bob.id}`, { body });
    t.ok(res.status === 400 || res.status === 404, `${JSON.stringify(body)}: ${res.status}`);
    t.equal(res.body.error.param, param);
  }

  const owned = await apiA.send<Contact>('PATCH', `/v1/contacts/${bob.id}`, { body: { owner_id: a.user.id } });
  t.equal(owned.body.owner_id, a.user.id, 'owner_id takes a member of the workspace');

  const archived = await apiA.send<Contact>('DELETE', `/v1/contacts/${bob.id}`);
  t.equal(archived.status, 200);
  t.equal(archived.body.status, 'archived');
  const again = await apiA.send<Contact>('DELETE', `/v1/contacts/${bob.id}`);
  t.equal(again.body.updated_at, archived.body.updated_at, 'archiving twice changes nothing');
  const still = await apiA.get<Contact>(`/v1/contacts/${bob.id}`);
  t.equal(still.status, 200, 'an archived contact is still readable');
  t.equal(still.body.status, 'archived');
  const revived = await apiA.send<Contact>('PATCH', `/v1/contacts/${bob.id}`, { body: { status: 'active' } });
  t.equal(revived.body.status, 'active');

  t.equal((await apiA.get('/v1/contacts/con_doesnotexist')).status, 404);
  t.equal((await apiA.send('PATCH', '/v1/contacts/con_doesnotexist', { body: { first_name: 'X' } })).status, 404);
  t.equal((await apiA.send('DELETE', '/v1/contacts/con_doesnotexist')).status, 404);
});

t.test('custom fields: create, list, get, update, archive, restore', async (t) => {
  const created = await apiA.post<{ id: string; key: string; archived: boolean; options: string[] }>('/v1/custom-fields', {
    object_type: 'deal',
    key: 'source',
    label: 'Source',
    type: 'select',
    options: ['web', 'referral'],
  });
  t.equal(created.status, 201);
  t.equal(created.headers.get('location'), `${stack.baseUrl}/v1/custom-fields/${created.body.id}`);
  const id = created.body.id;
  t.equal((await apiA.get(`/v1/custom-fields/${id}`)).status, 200);

  const dup = await apiA.post<ErrorBody>('/v1/custom-fields', { object_type: 'deal', key: 'source', label: 'Again', type: 'text' });
  t.equal(dup.status, 409);
  t.equal(dup.body.error.param, 'key');
  const sameKeyOtherObject = await apiA.post('/v1/custom-fields', { object_type: 'contact', key: 'source', label: 'Source', type: 'text' });
  t.equal(sameKeyOtherObject.status, 201, 'keys are unique per object type');

  for (const [body, param] of [
    [{ object_type: 'deal', key: 'Bad Key', label: 'x', type: 'text' }, 'key'],
    [{ object_type: 'deal', key: 'kind', label: 'x', type: 'select' }, 'options'],
    [{ object_type: 'deal', key: 'kind', label: 'x', type: 'text', options: ['a'] }, 'options'],
    [{ object_type: 'deal', key: 'kind', label: 'x', type: 'select', options: ['a', 'a'] }, 'options'],
    [{ object_type: 'company', key: 'kind', label: 'x', type: 'text' }, 'object_type'],
    [{ object_type: 'deal', key: 'kind', label: 'x', type: 'color' }, 'type'],
    // Zero-width characters survive trimming and show nothing: a label or option of only those names nothing.
    [{ object_type: 'deal', key: 'kind', label: '\u200b', type: 'text' }, 'label'],
    [{ object_type: 'deal', key: 'kind', label: 'x', type: 'select', options: ['a', '\ufeff'] }, 'options.1'],
  ] as const) {
    const res = await apiA.post<ErrorBody>('/v1/custom-fields', body);
    t.equal(res.status, 400, JSON.stringify(body));
    t.equal(res.body.error.param, param);
  }

  const updated = await apiA.send<{ label: string; options: string[]; required: boolean }>('PATCH', `/v1/custom-fields/${id}`, {
    body: { label: 'Lead source', options: ['web', 'referral', 'event'], required: false },
  });
  t.match(updated.body, { label: 'Lead source', options: ['web', 'referral', 'event'], required: false });
  // The list replaces the old one; an option that a record holds cannot be left out.
  const holder = await apiA.post<{ id: string }>('/v1/deals', { name: 'From the web', custom_fields: { source: 'web' } });
  t.equal(holder.status, 201);
  const dropped = await apiA.send<ErrorBody>('PATCH', `/v1/custom-fields/${id}`, { body: { options: ['referral', 'event'] } });
  t.equal(dropped.status, 409, 'an option in use stays');
  t.equal(dropped.body.error.param, 'options');
  t.match(dropped.body.error.message, /"web" \(1 deal\)/);
  t.same((await apiA.get<{ options: string[] }>(`/v1/custom-fields/${id}`)).body.options, ['web', 'referral', 'event'], 'nothing changed');
  const unused = await apiA.send<{ options: string[] }>('PATCH', `/v1/custom-fields/${id}`, { body: { options: ['web', 'event'] } });
  t.same(unused.body.options, ['web', 'event'], 'an option no record holds can go');
  t.equal((await apiA.send('DELETE', `/v1/deals/${holder.body.id}`)).status, 200);
  const invisibleLabel = await apiA.send<ErrorBody>('PATCH', `/v1/custom-fields/${id}`, { body: { label: ' \u200b ' } });
  t.equal(invisibleLabel.status, 400, 'nor can a label become invisible');
  t.equal(invisibleLabel.body.error.param, 'label');
  const typeChange = await apiA.send<ErrorBody>('PATCH', `/v1/custom-fields/${id}`, { body: { type: 'text' } });
  t.equal(typeChange.status, 400, 'the type never changes');

  const list = await apiA.get<{ data: { id: string }[] }>('/v1/custom-fields?object_type=deal');
  t.ok(list.body.data.some((f) => f.id === id));
  const archived = await apiA.send<{ archived: boolean }>('DELETE', `/v1/custom-fields/${id}`);
  t.equal(archived.body.archived, true);
  t.notOk((await apiA.get<{ data: { id: string }[] }>('/v1/custom-fields?object_type=deal')).body.data.some((f) => f.id === id), 'archived fields are hidden');
  t.ok((await apiA.get<{ data: { id: string }[] }>('/v1/custom-fields?include_archived=true')).body.data.some((f) => f.id === id));
  const restored = await apiA.send<{ archived: boolean }>('PATCH', `/v1/custom-fields/${id}`, { body: { archived: false } });
  t.equal(restored.body.archived, false);
  t.equal((await apiA.get('/v1/custom-fields?include_archived=maybe')).status, 400);
});

t.test('pipelines and stages: create, rename, reorder, archive, default', async (t) => {
  const list = await apiA.get<{ object: string; data: Pipeline[] }>('/v1/pipelines');
  t.same(Object.keys(list.body), ['object', 'data'], 'the list envelope around the rows the worker wrote');
  t.equal(list.body.object, 'list');
  t.equal(list.body.data.length, 1, 'a workspace starts with one pipeline');
  const [sales] = list.body.data;
  t.equal(sales?.is_default, true);
  t.same(sales?.stages.map((s) => s.name), ['Lead', 'Qualified', 'Negotiation', 'Won', 'Lost']);

  const created = await apiA.post<Pipeline>('/v1/pipelines', { name: 'Renewals', stages: ['Due', 'Contacted', 'Renewed'] });
  t.equal(created.status, 201);
  t.equal(created.headers.get('location'), `${stack.baseUrl}/v1/pipelines/${created.body.id}`);
  const pipe = created.body;
  t.same(pipe.stages.map((s) => [s.name, s.position]), [['Due', 0], ['Contacted', 1], ['Renewed', 2]]);
  t.equal((await apiA.post<ErrorBody>('/v1/pipelines', { name: 'renewals' })).status, 409, 'pipeline names are unique (case does not matter)');
  const folded = await apiA.post<ErrorBody>('/v1/pipelines', { name: 'Turkish', stages: ['İade', 'iade'] });
  t.equal(folded.status, 400, 'stage names that Postgres folds to one are refused like any repeated name');
  t.equal(folded.body.error.param, 'stages');
  t.notOk((await apiA.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data.some((p) => p.name === 'Turkish'), 'and nothing is created');
  const defaults = await apiA.post<Pipeline>('/v1/pipelines', { name: 'Partners' });
  t.same(defaults.body.stages.map((s) => s.name), ['Lead', 'Qualified', 'Negotiation', 'Won', 'Lost'], 'default stages when none are given');

  const withStage = await apiA.post<Pipeline>(`/v1/pipelines/${pipe.id}/stages`, { name: 'Negotiating', position: 2 });
  t.equal(withStage.status, 201);
  t.same(withStage.body.stages.map((s) => s.name), ['Due', 'Contacted', 'Negotiating', 'Renewed']);
  const dupStage = await apiA.post<ErrorBody>(`/v1/pipelines/${pipe.id}/stages`, { name: 'due' });
  t.equal(dupStage.status, 409, 'a stage name is unique within its pipeline');
  t.equal(dupStage.body.error.param, 'name');
  t.equal((await apiA.post(`/v1/pipelines/${sales?.id}/stages`, { name: 'Due' })).status, 201, 'but may repeat in another pipeline');

  const due = withStage.body.stages[0] as Stage;
  const moved = await apiA.send<Pipeline>('PATCH', `/v1/pipelines/${pipe.id}/stages/${due.id}`, { body: { position: 3, name: 'Coming due' } });
  t.same(moved.body.stages.map((s) => [s.name, s.position]), [['Contacted', 0], ['Negotiating', 1], ['Renewed', 2], ['Coming due', 3]]);
  const back = await apiA.send<Pipeline>('PATCH', `/v1/pipelines/${pipe.id}/stages/${due.id}`, { body: { position: 0 } });
  t.same(back.body.stages.map((s) => s.name), ['Coming due', 'Contacted', 'Negotiating', 'Renewed']);

  const negotiating = back.body.stages[2] as Stage;
  const archived = await apiA.send<Pipeline>('DELETE', `/v1/pipelines/${pipe.id}/stages/${negotiating.id}`);
  t.same(archived.body.stages.map((s) => [s.name, s.position, s.archived]), [
    ['Coming due', 0, false],
    ['Contacted', 1, false],
    ['Renewed', 2, false],
    ['Negotiating', null, true],
  ]);
  const renameArchived = await apiA.send<ErrorBody>('PATCH', `/v1/pipelines/${pipe.id}/stages/${negotiating.id}`, { body: { name: 'Talking' } });
  t.equal(renameArchived.status, 409, 'an archived stage exists but does not change');
  t.match(renameArchived.body.error, { code: 'conflict', param: 'stage_id', message: /"Negotiating" is archived/ });
  t.equal((await apiA.post(`/v1/pipelines/${pipe.id}/stages`, { name: 'Negotiating' })).status, 201, 'an archived name can be used again');

  const renamed = await apiA.send<Pipeline>('PATCH', `/v1/pipelines/${pipe.id}`, { body: { name: 'Renewals 2027', is_default: true } });
  t.equal(renamed.body.name, 'Renewals 2027');
  t.equal(renamed.body.is_default, true);
  const after = await apiA.get<{ data: Pipeline[] }>('/v1/pipelines');
  t.same(after.body.data.filter((p) => p.is_default).map((p) => p.id), [pipe.id], 'one default pipeline, listed first');
  t.equal(after.body.data[0]?.id, pipe.id);
  t.equal((await apiA.get(`/v1/pipelines/${pipe.id}`)).status, 200);

  const single = await apiA.post<Pipeline>('/v1/pipelines', { name: 'Tiny', stages: ['Only'] });
  const last = await apiA.send<ErrorBody>('DELETE', `/v1/pipelines/${single.body.id}/stages/${single.body.stages[0]?.id}`);
  t.equal(last.status, 409, 'a pipeline keeps one active stage');
  await apiA.send('PATCH', `/v1/pipelines/${sales?.id}`, { body: { is_default: true } });
});

t.test('deals: create (placement rules), get, patch (stage moves), delete', async (t) => {
  const pipelines = (await apiA.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data;
  const sales = pipelines.find((p) => p.name === 'Sales') as Pipeline;
  const renewals = pipelines.find((p) => p.name === 'Renewals 2027') as Pipeline;
  const contact = (await apiA.post<Contact>('/v1/contacts', { first_name: 'Buyer', phone: '+1 415 555 0190' })).body;

  const plain = await apiA.post<Deal>('/v1/deals', { name: 'Plain' });
  t.equal(plain.status, 201);
  t.equal(plain.headers.get('location'), `${stack.baseUrl}/v1/deals/${plain.body.id}`);
  t.match(plain.body, { pipeline_id: sales.id, stage_id: sales.stages[0]?.id, amount: null, currency: null }, 'the first stage of the default pipeline');

  const full = await apiA.post<Deal>('/v1/deals', {
    name: 'Full',
    stage_id: renewals.stages[1]?.id,
    amount: 990000,
    currency: 'eur',
    contact_id: contact.id,
    owner_id: a.user.id,
    closed_at: '2026-12-31T12:00:00+01:00',
  });
  t.equal(full.status, 201);
  t.match(full.body, {
    pipeline_id: renewals.id,
    stage_id: renewals.stages[1]?.id,
    amount: 990000,
    currency: 'EUR',
    contact_id: contact.id,
    owner_id: a.user.id,
    closed_at: '2026-12-31T11:00:00.000Z',
  });
  t.same((await apiA.get<Deal>(`/v1/deals/${full.body.id}`)).body, full.body);
  // Kept to the millisecond, which Postgres rounds to: the same finer instant again writes nothing.
  const finer = await apiA.send<Deal>('PATCH', `/v1/deals/${full.body.id}`, { body: { closed_at: '2026-12-31T11:00:00.0006Z' } });
  t.equal(finer.body.closed_at, '2026-12-31T11:00:00.001Z', 'a finer instant is stored rounded to the millisecond');
  const finerAgain = await apiA.send<Deal>('PATCH', `/v1/deals/${full.body.id}`, { body: { closed_at: '2026-12-31T11:00:00.0006Z' } });
  t.equal(finerAgain.body.updated_at, finer.body.updated_at, 'the same finer instant again: updated_at stays (before: written again)');

  const cases: [unknown, number, string][] = [
    [{ name: 'x', pipeline_id: sales.id, stage_id: renewals.stages[0]?.id }, 400, 'stage_id'],
    [{ name: 'x', amount: 100 }, 400, 'currency'],
    [{ name: 'x', amount: 1.5, currency: 'USD' }, 400, 'amount'],
    [{ name: 'x', amount: -1, currency: 'USD' }, 400, 'amount'],
    [{ name: 'x', amount: 5, currency: 'XYZ' }, 400, 'currency'],
    [{ name: 'x', contact_id: 'con_nope' }, 404, 'contact_id'],
    [{ name: 'x', contact_id: '' }, 400, 'contact_id'],
    [{ name: 'x', pipeline_id: '' }, 400, 'pipeline_id'],
    [{ name: 'x', pipeline_id: 'pipe_nope' }, 404, 'pipeline_id'],
    [{ name: 'x', stage_id: 'stg_nope' }, 404, 'stage_id'],
    [{ name: 'x', owner_id: 'usr_nope' }, 404, 'owner_id'],
    [{ name: '' }, 400, 'name'],
    [{ name: 'x', closed_at: 'yesterday' }, 400, 'closed_at'],
  ];
  for (const [body, status, param] of cases) {
    const res = await apiA.post<ErrorBody>('/v1/deals', body);
    t.equal(res.status, status, `${JSON.stringify(body)} → ${status}`);
    t.equal(res.body.error.param, param);
  }
  const archivedStage = renewals.stages.find((s) => s.archived);
  const intoArchived = await apiA.post<ErrorBody>('/v1/deals', { name: 'x', stage_id: archivedStage?.id });
  t.equal(intoArchived.status, 400, 'no deal moves into an archived stage');

  const moved = await apiA.send<Deal>('PATCH', `/v1/deals/${plain.body.id}`, { body: { stage_id: sales.stages[2]?.id, amount: 5000, currency: 'USD' } });
  t.equal(moved.status, 200);
  t.equal(moved.body.stage_id, sales.stages[2]?.id, 'moved to Negotiation');
  const crossPipeline = await apiA.send<ErrorBody>('PATCH', `/v1/deals/${plain.body.id}`, { body: { stage_id: renewals.stages[0]?.id } });
  t.equal(crossPipeline.status, 400, 'a stage of another pipeline is a 400');
  t.equal(crossPipeline.body.error.param, 'stage_id');
  const explicit = await apiA.send<Deal>('PATCH', `/v1/deals/${plain.body.id}`, { body: { pipeline_id: renewals.id, stage_id: renewals.stages[0]?.id } });
  t.equal(explicit.body.pipeline_id, renewals.id, 'pipeline_id and a stage of that pipeline move it');
  const pipelineOnly = await apiA.send<Deal>('PATCH', `/v1/deals/${plain.body.id}`, { body: { pipeline_id: sales.id } });
  t.equal(pipelineOnly.body.stage_id, sales.stages[0]?.id, 'pipeline_id alone: its first stage');
  const emptyContact = await apiA.send<ErrorBody>('PATCH', `/v1/deals/${plain.body.id}`, { body: { contact_id: '' } });
  t.equal(emptyContact.status, 400, 'an empty contact_id is refused (null removes the contact)');
  t.equal(emptyContact.body.error.param, 'contact_id');
  const noCurrency = await apiA.send<ErrorBody>('PATCH', `/v1/deals/${plain.body.id}`, { body: { currency: null } });
  t.equal(noCurrency.status, 400, 'an amount keeps its currency');

  const deleted = await apiA.send<{ deleted: boolean }>('DELETE', `/v1/deals/${plain.body.id}`);
  t.same(deleted.body, { object: 'deal', id: plain.body.id, deleted: true });
  t.equal((await apiA.get(`/v1/deals/${plain.body.id}`)).status, 404);
  t.equal((await apiA.send('DELETE', `/v1/deals/${plain.body.id}`)).status, 404);
});

t.test('tokens over REST: list, create (never beyond its own scopes), revoke', async (t) => {
  const created = await apiA.post<{ id: string; token: string; scopes: string[] }>('/v1/tokens', { name: 'integration', scopes: ['contacts:read'] });
  t.equal(created.status, 201);
  t.match(created.body.token, /^sk_live_/);
  t.equal(created.headers.get('cache-control'), 'no-store');
  const list = await apiA.get<{ data: { id: string; token?: string }[] }>('/v1/tokens');
  const listed = list.body.data.find((x) => x.id === created.body.id);
  t.ok(listed, 'listed');
  t.equal(listed?.token, undefined, 'never with its secret');
  t.notOk(JSON.stringify(list.body).includes(created.body.token.slice(8)));

  const narrow = client(stack.baseUrl, await stack.token(a.workspace.id, ['tokens:write', 'contacts:read']));
  const beyond = await narrow.post<ErrorBody>('/v1/tokens', { name: 'escalate', scopes: ['contacts:write'] });
  t.equal(beyond.status, 403, 'a token never creates one with scopes it lacks');
  t.match(beyond.body.error.message, /contacts:write/);
  t.equal((await narrow.post('/v1/tokens', { name: 'fine', scopes: ['contacts:read'] })).status, 201);
  const withKey = await apiA.post<ErrorBody>('/v1/tokens', { name: 'x', scopes: ['contacts:read'] }, { 'Idempotency-Key': 'k1' });
  t.equal(withKey.status, 400, 'no idempotency replay for a response holding a secret');
  t.equal(withKey.body.error.param, 'Idempotency-Key');

  const reader = client(stack.baseUrl, await stack.token(a.workspace.id, ['contacts:read']));
  const forbidden = await reader.get<ErrorBody>('/v1/tokens');
  t.equal(forbidden.status, 403);
  t.equal(forbidden.body.error.required_scope, 'tokens:write');

  const revoked = await apiA.send<{ revoked_at: string | null }>('DELETE', `/v1/tokens/${created.body.id}`);
  t.equal(revoked.status, 200);
  t.ok(revoked.body.revoked_at);
  t.equal((await client(stack.baseUrl, created.body.token).get('/v1/me')).status, 401);
  t.ok((await apiA.get<{ data: { id: string }[] }>('/v1/tokens?include_revoked=true')).body.data.some((x) => x.id === created.body.id));
});

t.test("another workspace's ids are 404 everywhere, in paths, bodies and filters", async (t) => {
  const contact = (await apiB.post<Contact>('/v1/contacts', { first_name: 'Bea', phone: '+44 20 7946 0001' })).body;
  const pipeline = (await apiB.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data[0] as Pipeline;
  const stage = pipeline.stages[0] as Stage;
  const deal = (await apiB.post<Deal>('/v1/deals', { name: 'B deal', contact_id: contact.id })).body;
  const field = (await apiB.post<{ id: string }>('/v1/custom-fields', { object_type: 'contact', key: 'b_only', label: 'B', type: 'text' })).body;
  const token = (await apiB.post<{ id: string }>('/v1/tokens', { name: 'b', scopes: ['contacts:read'] })).body;
  const mine = (await apiA.post<Deal>('/v1/deals', { name: 'A deal' })).body;

  const probes: [string, string, unknown, string | undefined][] = [
    ['GET', `/v1/contacts/${contact.id}`, undefined, 'id'],
    ['PATCH', `/v1/contacts/${contact.id}`, { first_name: 'Hacked' }, 'id'],
    ['DELETE', `/v1/contacts/${contact.id}`, undefined, 'id'],
    ['GET', `/v1/deals/${deal.id}`, undefined, 'id'],
    ['PATCH', `/v1/deals/${deal.id}`, { name: 'Hacked' }, 'id'],
    ['DELETE', `/v1/deals/${deal.id}`, undefined, 'id'],
    ['GET', `/v1/pipelines/${pipeline.id}`, undefined, 'id'],
    ['PATCH', `/v1/pipelines/${pipeline.id}`, { name: 'Hacked' }, 'id'],
    ['POST', `/v1/pipelines/${pipeline.id}/stages`, { name: 'Hacked' }, 'id'],
    ['PATCH', `/v1/pipelines/${pipeline.id}/stages/${stage.id}`, { name: 'Hacked' }, 'id'],
    ['DELETE', `/v1/pipelines/${pipeline.id}/stages/${stage.id}`, undefined, 'id'],
    ['GET', `/v1/custom-fields/${field.id}`, undefined, 'id'],
    ['PATCH', `/v1/custom-fields/${field.id}`, { label: 'Hacked' }, 'id'],
    ['DELETE', `/v1/custom-fields/${field.id}`, undefined, 'id'],
    ['DELETE', `/v1/tokens/${token.id}`, undefined, 'id'],
    ['POST', '/v1/deals', { name: 'x', contact_id: contact.id }, 'contact_id'],
    ['POST', '/v1/deals', { name: 'x', pipeline_id: pipeline.id }, 'pipeline_id'],
    ['POST', '/v1/deals', { name: 'x', stage_id: stage.id }, 'stage_id'],
    ['PATCH', `/v1/deals/${mine.id}`, { contact_id: contact.id }, 'contact_id'],
    ['PATCH', `/v1/deals/${mine.id}`, { stage_id: stage.id }, 'stage_id'],
    ['PATCH', `/v1/deals/${mine.id}`, { pipeline_id: pipeline.id }, 'pipeline_id'],
    ['POST', '/v1/contacts', { first_name: 'x', phone: '+1 415 555 0177', owner_id: b.user.id }, 'owner_id'],
    ['GET', `/v1/deals?contact_id=${contact.id}`, undefined, 'contact_id'],
    ['GET', `/v1/deals?pipeline_id=${pipeline.id}`, undefined, 'pipeline_id'],
    ['GET', `/v1/deals?stage=${stage.id}`, undefined, 'stage'],
  ];
  for (const [method, path, body, param] of probes) {
    const res = await apiA.send<ErrorBody>(method, path, { body });
    t.equal(res.status, 404, `${method} ${path} ${body ? JSON.stringify(body) : ''}`);
    t.equal(res.body.error.code, 'not_found');
    if (param) t.equal(res.body.error.param, param);
  }
  const fromB = await apiB.get<Contact>(`/v1/contacts/${contact.id}`);
  t.equal(fromB.body.first_name, 'Bea', 'nothing in B was changed');
  t.equal((await apiB.get<Pipeline>(`/v1/pipelines/${pipeline.id}`)).body.stages.length, 5);
  t.equal((await apiB.get(`/v1/deals/${deal.id}`)).status, 200);
  const aFields = await apiA.get<{ data: { key: string }[] }>('/v1/custom-fields?include_archived=true');
  t.notOk(aFields.body.data.some((f) => f.key === 'b_only'));
  const crossRefs = await stack.db.query<{ n: string }>(
    `select count(*) as n from deals d
       left join contacts c on c.id = d.contact_id
       join stages s on s.id = d.stage_id join pipelines p on p.id = d.pipeline_id
     where (c.id is not null and c.workspace_id <> d.workspace_id) or s.workspace_id <> d.workspace_id or p.workspace_id <> d.workspace_id`,
  );
  t.equal(Number(crossRefs[0]?.n), 0, 'the database holds no cross-workspace reference');
});

t.test('unknown routes and query parameters are clear errors', async (t) => {
  const route = await apiA.get<ErrorBody>('/v1/companies');
  t.equal(route.status, 404);
  t.match(route.body.error.message, /No route/);
  for (const path of ['/v1/deals?sort=name', '/v1/pipelines?limit=5', '/v1/contacts/con_x?expand=deals', '/v1/deals?stage=', '/v1/deals?contact_id=', '/v1/deals?pipeline_id=']) {
    t.equal((await apiA.get(path)).status, 400, path);
  }
});

t.test('a move racing an archive of its stage: the move waits and is refused; echoing an archived current stage (by id or name) is no move', async (t) => {
  const pipe = (await apiA.post<Pipeline>('/v1/pipelines', { name: 'Race', stages: ['Open', 'Middle', 'Closing'] })).body;
  const [open, middle, closing] = pipe.stages as [Stage, Stage, Stage];
  const deal = (await apiA.post<Deal>('/v1/deals', { name: 'Racer', pipeline_id: pipe.id })).body;
  // The archive's transaction as archive-stage makes it, held open: the last stage, so no other stage shifts.
  const archive = { sql: 'update stages set archived_at = now(), position = null, updated_at = now() where workspace_id = $1 and id = $2', params: [a.workspace.id, closing.id] };
  const { result: move, waited } = await whileHeld(stack.db.url, [archive], () => apiA.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: closing.id } }));
  t.ok(waited, 'the move waits for the archive to commit');
  t.equal(move.status, 400, 'then finds the stage archived');
  t.equal(move.body.error.param, 'stage_id');
  t.equal((await apiA.get<Deal>(`/v1/deals/${deal.id}`)).body.stage_id, open.id, 'the deal stays in an active stage');

  t.equal((await apiA.send('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: middle.id } })).status, 200);
  t.equal((await apiA.send('DELETE', `/v1/pipelines/${pipe.id}/stages/${middle.id}`)).status, 200);
  const echoed = await apiA.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: middle.id, name: 'Racer 2' } });
  t.equal(echoed.status, 200, "the deal's own stage, archived since, given back with a change");
  t.match(echoed.body, { stage_id: middle.id, name: 'Racer 2' });
  const unchanged = await apiA.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: middle.id, name: 'Racer 2' } });
  t.equal(unchanged.body.updated_at, echoed.body.updated_at, 'a PATCH repeating the values writes nothing');
  const byName = await apiA.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { stage: 'MIDDLE', name: 'Racer 3' } });
  t.equal(byName.status, 200, "the deal's own archived stage given back by name (as get_deal names it) is no move either");
  t.match(byName.body, { stage_id: middle.id, name: 'Racer 3' });
  const elsewhere = await apiA.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { stage: 'Closing' } });
  t.equal(elsewhere.status, 400, 'another archived stage by name is still refused');
  t.equal(elsewhere.body.error.param, 'stage');
});

t.test('a deal created in a stage while a stage change holds its pipeline waits for it, and no deadlock fails either', async (t) => {
  const pipe = (await apiA.post<Pipeline>('/v1/pipelines', { name: 'Race two', stages: ['First', 'Last'] })).body;
  const last = pipe.stages[1] as Stage;
  // A stage change as archive-stage makes it: the pipeline locked, then its stage written (the last one, so no other shifts).
  const lockPipeline = { sql: 'select id from pipelines where workspace_id = $1 and id = $2 for update', params: [a.workspace.id, pipe.id] };
  const archiveLast = { sql: 'update stages set archived_at = now(), position = null, updated_at = now() where workspace_id = $1 and id = $2', params: [a.workspace.id, last.id] };
  const created = await whileHeld(stack.db.url, [lockPipeline], () => apiA.post<ErrorBody>('/v1/deals', { name: 'Into Last', stage_id: last.id }), [archiveLast]);
  t.ok(created.waited, 'the create waits for the change');
  t.equal(created.holderError?.message, undefined, 'the change goes through');
  t.equal(created.result.status, 400, 'then the create finds the stage archived (not a deadlock answered 503)');
  t.equal(created.result.body.error.param, 'stage_id');
});
