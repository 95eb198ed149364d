import t from 'tap';
import { listEvents, type Event } from '../../shared/contracts/events.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { busAs } from '../helpers/bus-as.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/** Deal and schema writes store their events; reads of the feed follow the caller's scopes and visibility. */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const admin = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'schema:write', 'events:read'], { name: 'admin token' }));
const feed = async (api: typeof admin, query = '') => (await api.get<{ data: Event[] }>(`/v1/events?limit=100${query}`)).body.data;

t.test('deals: created, updated, stage_changed, deleted', async (t) => {
  const pipeline = (await admin.post<{ id: string; stages: { id: string }[] }>('/v1/pipelines', { name: 'Enterprise', stages: ['New', 'Won'] })).body;
  const [first, second] = pipeline.stages as [{ id: string }, { id: string }];
  const deal = (await admin.post<{ id: string }>('/v1/deals', { name: 'Big one', pipeline_id: pipeline.id, amount: 1000, currency: 'EUR' })).body;
  t.equal((await admin.send('PATCH', `/v1/deals/${deal.id}`, { body: { amount: 2000 } })).status, 200);
  t.equal((await admin.send('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: second.id } })).status, 200);
  t.equal((await admin.send('DELETE', `/v1/deals/${deal.id}`)).status, 200);
  const events = await feed(admin, `&object_id=${deal.id}`);
  t.same(
    events.map((e) => e.type),
    ['deal.deleted', 'deal.stage_changed', 'deal.updated', 'deal.created'],
  );
  const [deleted, moved, updated] = events as [Event, Event, Event];
  t.same(updated.data.previous_attributes, { amount: 1000 });
  t.same(moved.data.previous_attributes, { stage_id: first.id });
  t.equal(moved.data.object.stage_id, second.id);
  t.equal(deleted.data.object.name, 'Big one', 'a deleted deal is kept in its event as it was');
  t.same((await feed(admin, '&type=deal.stage_changed')).map((e) => e.id), [moved.id], 'filter by type');
});

t.test('deleting a deal deletes its notes, each with a note.deleted event, in the same write', async (t) => {
  const deal = (await admin.post<{ id: string }>('/v1/deals', { name: 'With notes' })).body;
  const notes = [];
  for (const body of ['First call.', 'Sent the offer.']) notes.push((await admin.post<{ id: string }>('/v1/notes', { deal_id: deal.id, body })).body.id);
  t.equal((await admin.send('DELETE', `/v1/deals/${deal.id}`)).status, 200);
  const [dealDeleted, ...notesDeleted] = (await feed(admin)).slice(0, 3);
  t.equal(dealDeleted?.type, 'deal.deleted', 'the deal last, so newest first');
  t.same(
    notesDeleted.map((e) => [e.type, e.data.object.id, e.data.object.deal_id]),
    [...notes].reverse().map((id) => ['note.deleted', id, deal.id]),
    'each note, in the order recorded',
  );
  t.same(new Set([dealDeleted, ...notesDeleted].map((e) => e?.request_id)).size, 1, 'one request');
  t.match(notesDeleted[1]?.data.object, { body: 'First call.' }, 'kept as it was');
  t.equal((await stack.db.query('select 1 from notes where deal_id = $1', [deal.id])).length, 0);
});

t.test('schema: custom fields, pipelines, stages', async (t) => {
  const field = (await admin.post<{ id: string }>('/v1/custom-fields', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'text' })).body;
  const relabelled = await admin.send<{ updated_at: string }>('PATCH', `/v1/custom-fields/${field.id}`, { body: { label: 'Level' } });
  t.equal(relabelled.status, 200);
  const sameLabel = await admin.send<{ updated_at: string }>('PATCH', `/v1/custom-fields/${field.id}`, { body: { label: 'Level', required: false } });
  t.equal(sameLabel.body.updated_at, relabelled.body.updated_at, 'the same values again: updated_at stays');
  const archived = await admin.send<{ updated_at: string }>('DELETE', `/v1/custom-fields/${field.id}`);
  t.equal(archived.status, 200);
  const again = await admin.send<{ updated_at: string }>('DELETE', `/v1/custom-fields/${field.id}`);
  t.equal(again.status, 200, 'archived again');
  t.equal(again.body.updated_at, archived.body.updated_at, 'archived again: updated_at stays');
  t.same((await feed(admin, `&object_id=${field.id}`)).map((e) => [e.type, e.data.previous_attributes]), [
    ['custom_field.archived', { archived: false }],
    ['custom_field.updated', { label: 'Tier' }],
    ['custom_field.created', null],
  ]);

  const pipeline = (await admin.post<{ id: string }>('/v1/pipelines', { name: 'Hiring', stages: ['Applied', 'Hired'] })).body;
  const renamed = await admin.send<{ updated_at: string }>('PATCH', `/v1/pipelines/${pipeline.id}`, { body: { name: 'Recruiting' } });
  t.equal(renamed.status, 200);
  const renamedAgain = await admin.send<{ updated_at: string }>('PATCH', `/v1/pipelines/${pipeline.id}`, { body: { name: 'Recruiting' } });
  t.equal(renamedAgain.body.updated_at, renamed.body.updated_at, 'a pipeline given its own values again: updated_at stays');
  const added = await admin.post<{ stages: { id: string; name: string }[] }>(`/v1/pipelines/${pipeline.id}/stages`, { name: 'Interview', position: 1 });
  const stage = added.body.stages.find((s) => s.name === 'Interview');
  t.ok(stage);
  type StagesOf = { stages: { id: string; updated_at: string }[] };
  const stageRenamed = await admin.send<StagesOf>('PATCH', `/v1/pipelines/${pipeline.id}/stages/${stage?.id}`, { body: { name: 'Interviews' } });
  t.equal(stageRenamed.status, 200);
  const stageAgain = await admin.send<StagesOf>('PATCH', `/v1/pipelines/${pipeline.id}/stages/${stage?.id}`, { body: { name: 'Interviews', position: 1 } });
  t.same(stageAgain.body.stages, stageRenamed.body.stages, 'a stage given its own name and place again: no stage changes, updated_at included');
  t.equal((await admin.send('DELETE', `/v1/pipelines/${pipeline.id}/stages/${stage?.id}`)).status, 200);
  t.same((await feed(admin, `&object_id=${pipeline.id}`)).map((e) => [e.type, e.data.previous_attributes]), [
    ['pipeline.updated', { name: 'Hiring' }],
    ['pipeline.created', null],
  ]);
  t.same((await feed(admin, `&object_id=${stage?.id}`)).map((e) => [e.type, e.data.previous_attributes]), [
    ['stage.archived', { position: 1, archived: false }],
    ['stage.updated', { name: 'Interview' }],
    ['stage.created', null],
  ]);
  t.equal((await feed(admin, '&type=stage.')).length, 3, 'a type prefix');
});

t.test('the feed shows only what the caller may read', async (t) => {
  const contactsOnly = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:read', 'events:read']));
  const eventsOnly = client(stack.baseUrl, await stack.token(ws.workspace.id, ['events:read']));
  await admin.post('/v1/contacts', { first_name: 'Visible', phone: '+1 415 555 0300' });
  const seen = new Set((await feed(contactsOnly)).map((e) => e.type.split('.')[0]));
  t.same([...seen], ['contact'], 'contacts:read sees contact events only');
  t.same(await feed(eventsOnly), [], 'events:read alone sees nothing');
  const dealEvent = (await feed(admin, '&type=deal.')).at(0);
  t.equal((await contactsOnly.get(`/v1/events/${dealEvent?.id}`)).status, 404, 'a deal event is a 404 without deals:read');
  t.equal((await client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:read'])).get('/v1/events')).status, 403, 'events:read is needed');

  // An `owned` member sees the events of their own records only.
  const rep = await stack.addMember(ws.workspace.id, `rep-${Date.now()}@example.test`, ['contacts.write', 'deals.write'], 'owned');
  await admin.post('/v1/contacts', { first_name: 'Theirs', phone: '+1 415 555 0301', owner_id: rep });
  const bus = await busAs(t, stack, 'gateway');
  const repContext: CallContext = { workspace_id: ws.workspace.id, principal: { type: 'user', id: rep, scopes: ['contacts:write', 'deals:write', 'events:read'] }, visibility: 'owned' };
  const { result } = await bus.call(listEvents, { limit: 100 }, { context: repContext, requestId: 'req_owned_feed' });
  t.same(
    result.data.map((e) => e.data.object.first_name),
    ['Theirs'],
    'only the contact they own',
  );
});

t.test('a deal PATCH that repeats its values writes nothing and records nothing', async (t) => {
  const deal = (await admin.post<{ id: string; updated_at: string; stage_id: string }>('/v1/deals', { name: 'Same', amount: 500, currency: 'USD', closed_at: '2026-03-01T10:00:00Z' })).body;
  const again = await admin.send<{ updated_at: string }>('PATCH', `/v1/deals/${deal.id}`, {
    body: { name: 'Same', amount: 500, currency: 'usd', closed_at: '2026-03-01T11:00:00+01:00', stage_id: deal.stage_id, contact_id: null },
  });
  t.equal(again.status, 200);
  t.equal(again.body.updated_at, deal.updated_at, 'updated_at stays');
  t.same((await feed(admin, `&object_id=${deal.id}`)).map((e) => e.type), ['deal.created'], 'no event');
});

t.test('making a pipeline the default records the change of the one it replaces; concurrent switches leave one default, each change in the feed', async (t) => {
  type PipelineBody = { id: string; is_default: boolean };
  const pipelines = async () => (await admin.get<{ data: PipelineBody[] }>('/v1/pipelines')).body.data;
  const first = (await pipelines()).find((p) => p.is_default);
  const created = await admin.post<PipelineBody>('/v1/pipelines', { name: 'New default', is_default: true });
  t.equal(created.status, 201);
  const [cleared] = await feed(admin, `&object_id=${first?.id}`);
  t.equal(cleared?.type, 'pipeline.updated');
  t.same(cleared?.data.previous_attributes, { is_default: true }, 'the old default stops being it, in the feed');
  t.equal(cleared?.data.object.is_default, false);
  const [createdEvent] = await feed(admin, `&object_id=${created.body.id}`);
  t.equal(cleared?.request_id, createdEvent?.request_id, 'in the same write');

  const others = [];
  for (const name of ['Switch A', 'Switch B', 'Switch C']) others.push((await admin.post<PipelineBody>('/v1/pipelines', { name })).body.id);
  const statuses = await Promise.all([
    ...[...others, first?.id, ...others].map(async (id) => (await admin.send('PATCH', `/v1/pipelines/${id}`, { body: { is_default: true } })).status),
    admin.post('/v1/pipelines', { name: 'Switch D', is_default: true }).then((r) => r.status),
  ]);
  t.ok(statuses.every((s) => s === 200 || s === 201), `concurrent switches all succeed: ${statuses.join(', ')}`);
  const now = await pipelines();
  t.equal(now.filter((p) => p.is_default).length, 1, 'one default');
  for (const p of now) {
    const [last] = await feed(admin, `&object_id=${p.id}`);
    t.equal(last?.data.object.is_default, p.is_default, `${p.id}: the feed's last word is the pipeline as it is`);
  }
});
