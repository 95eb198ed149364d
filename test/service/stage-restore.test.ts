import t from 'tap';
import type { Deal, ErrorBody, Pipeline, Stage } from '../helpers/api-types.js';
import { client } from '../helpers/http.js';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { useStack } from '../helpers/shared-stack.js';
import { storedEvents } from '../helpers/stored-events.js';

/**
 * An archived stage brought back with the update a stage already has (`archived: false`), over
 * REST and Studio: last among the active stages unless a position is given, its deals with it,
 * one stage.updated event; a name an active stage took meanwhile, a full pipeline, `archived:
 * true` are refused and change nothing; restoring an active stage changes nothing.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Phoenix', workspace: 'Restore', email: 'admin@phoenix.test', defaultCountry: 'US' });
const W = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(W, ['deals:write', 'schema:write']));
const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write'], { name: 'Studio agent' }));

const stageEvents = async (stageId: string) => (await storedEvents(stack.db, W)).filter((e) => e.object_type === 'stage' && e.object_id === stageId);
const read = async (id: string) => (await api.get<Pipeline>(`/v1/pipelines/${id}`)).body;
const order = (p: Pipeline) => p.stages.map((s) => [s.name, s.position, s.archived]);
const stageIn = (p: Pipeline, name: string): Stage => {
  const stage = p.stages.find((s) => s.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  return stage;
};
const patchStage = (p: Pipeline, stage: Stage, body: Record<string, unknown>) => api.send<Pipeline & { stage: Stage }>('PATCH', `/v1/pipelines/${p.id}/stages/${stage.id}`, { body });

t.test('PATCH archived: false restores a stage last, with the deals still in it, recording one stage.updated', async (t) => {
  const pipeline = (await api.post<Pipeline>('/v1/pipelines', { name: 'Comeback', stages: ['Lead', 'Demo', 'Won'] })).body;
  const demo = stageIn(pipeline, 'Demo');
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Kept deal', pipeline_id: pipeline.id, stage_id: demo.id })).body;
  t.equal((await api.send('DELETE', `/v1/pipelines/${pipeline.id}/stages/${demo.id}`)).status, 200);
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.stage_id, demo.id, 'archiving kept the deal in the stage');
  const other = (await api.post<Deal>('/v1/deals', { name: 'Mover', pipeline_id: pipeline.id, stage_id: stageIn(pipeline, 'Lead').id })).body;
  t.equal((await api.send('PATCH', `/v1/deals/${other.id}`, { body: { stage_id: demo.id } })).status, 400, 'no deal moves into it while archived');

  const restored = await patchStage(pipeline, demo, { archived: false });
  t.equal(restored.status, 200);
  t.match(restored.body.stage, { id: demo.id, name: 'Demo', archived: false, position: 2 }, 'the stage restored, last');
  t.same(order(restored.body), [
    ['Lead', 0, false],
    ['Won', 1, false],
    ['Demo', 2, false],
  ]);
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.stage_id, demo.id, 'its deal is still in it');
  t.equal((await api.send('PATCH', `/v1/deals/${other.id}`, { body: { stage_id: demo.id } })).status, 200, 'and deals move into it again');
  t.equal((await api.send('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: stageIn(pipeline, 'Won').id } })).status, 200, 'and out of it');

  const events = await stageEvents(demo.id);
  t.same(events.slice(-2).map((e) => e.type), ['stage.archived', 'stage.updated'], 'one event for the restore, after the archive');
  const restoredEvent = events.at(-1);
  t.equal(restoredEvent?.type, 'stage.updated', 'the restore is a stage.updated');
  t.match(restoredEvent?.data, { id: demo.id, archived: false, position: 2 });
  t.match(restoredEvent?.previous_attributes, { archived: true, position: null }, 'with what it was before');

  // Again: the stage is active, so nothing changes and nothing is recorded (as restoring an active custom field).
  const count = (await stageEvents(demo.id)).length;
  const again = await patchStage(pipeline, demo, { archived: false });
  t.equal(again.status, 200, 'restoring an active stage is no error');
  t.same(again.body.stage, restored.body.stage, 'and changes nothing, updated_at included');
  t.equal((await stageEvents(demo.id)).length, count, 'nor records anything');
});

t.test('a restore at a position, under a new name; the refusals change nothing', async (t) => {
  const pipeline = (await api.post<Pipeline>('/v1/pipelines', { name: 'Refusals', stages: ['One', 'Two', 'Three'] })).body;
  const one = stageIn(pipeline, 'One');
  await api.send('DELETE', `/v1/pipelines/${pipeline.id}/stages/${one.id}`);
  const taker = (await api.post<Pipeline & { stage: Stage }>(`/v1/pipelines/${pipeline.id}/stages`, { name: 'one' })).body.stage;
  const before = await read(pipeline.id);
  const eventCount = (await storedEvents(stack.db, W)).length;

  const taken = await patchStage(pipeline, one, { archived: false });
  t.equal(taken.status, 409, 'its name is an active stage\'s now (case ignored)');
  t.match((taken.body as unknown as ErrorBody).error, { code: 'conflict', param: 'name', existing_id: taker.id, message: /"One" cannot be restored under its name: the active stage "one" \(stg_\w+\)/ });
  const takenRenamed = await patchStage(pipeline, one, { archived: false, name: 'Two' });
  t.equal(takenRenamed.status, 409, 'as is another taken name given with it');
  t.match((takenRenamed.body as unknown as ErrorBody).error, { param: 'name', message: /restored as "Two": the active stage "Two"/ });
  const archiving = await patchStage(pipeline, stageIn(before, 'Two'), { archived: true });
  t.equal(archiving.status, 400, 'archived: true is not this operation\'s');
  t.match((archiving.body as unknown as ErrorBody).error, { param: 'archived', message: /can only be false.*archive operation/ });
  const renameArchived = await patchStage(pipeline, one, { name: 'Uno' });
  t.equal(renameArchived.status, 409, 'renaming an archived stage without restoring it');
  t.match((renameArchived.body as unknown as ErrorBody).error, { param: 'stage_id', message: /is archived.*Restore it first with archived: false/ });
  t.same(await read(pipeline.id), before, 'nothing changed');
  t.equal((await storedEvents(stack.db, W)).length, eventCount, 'nor was recorded');

  const back = await patchStage(pipeline, one, { archived: false, name: 'First', position: 0 });
  t.equal(back.status, 200);
  t.same(order(back.body), [
    ['First', 0, false],
    ['Two', 1, false],
    ['Three', 2, false],
    ['one', 3, false],
  ]);
  const event = (await stageEvents(one.id)).at(-1);
  t.match(event, { type: 'stage.updated', previous_attributes: { name: 'One', archived: true, position: null } });
});

t.test('a pipeline at its most active stages restores none', async (t) => {
  const names = Array.from({ length: 50 }, (_, i) => `Step ${i + 1}`);
  const full = (await api.post<Pipeline>('/v1/pipelines', { name: 'Full house', stages: names })).body;
  const first = stageIn(full, 'Step 1');
  await api.send('DELETE', `/v1/pipelines/${full.id}/stages/${first.id}`);
  t.equal((await api.post(`/v1/pipelines/${full.id}/stages`, { name: 'Step 51' })).status, 201);
  const before = await read(full.id);
  const refused = await patchStage(full, first, { archived: false });
  t.equal(refused.status, 409);
  t.match((refused.body as unknown as ErrorBody).error, { code: 'conflict', message: /at most 50 active stages.*before restoring "Step 1"/ });
  t.same(await read(full.id), before, 'nothing changed');
});

t.test('update_stage restores a stage over Studio, and a taken name is a conflict saying what to do', async (t) => {
  type Written = Pipeline & { stage: Stage };
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Studio comeback', stages: ['Open', 'Closed'] })) as unknown as Pipeline;
  const open = stageIn(pipeline, 'Open');
  okResult(t, await callTool(studio, 'archive_stage', { pipeline_id: pipeline.id, stage_id: open.id }));
  const refusedRename = await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: open.id, name: 'Reopened' });
  t.match(refusedRename.structuredContent, { code: 'conflict', param: 'stage_id', hint: /archived: false restores/ }, 'an archived stage: the hint says how to restore it');

  okResult(t, await callTool(studio, 'create_stage', { pipeline_id: pipeline.id, name: 'OPEN' }));
  const before = okResult(t, await callTool(studio, 'get_pipeline', { id: pipeline.id }));
  const taken = await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: open.id, archived: false });
  t.equal(taken.isError, true);
  t.match(taken.structuredContent, { code: 'conflict', param: 'name', message: /"Open" cannot be restored under its name: the active stage "OPEN"/, hint: /Choose another name/ });
  const archiving = await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: open.id, archived: true });
  t.match(archiving.structuredContent, { code: 'validation_failed', param: 'archived' }, 'archived: true is refused');
  t.same(okResult(t, await callTool(studio, 'get_pipeline', { id: pipeline.id })), before, 'nothing changed');

  const restored = okResult(t, await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: open.id, archived: false, name: 'Open again' })) as unknown as Written;
  t.match(restored.stage, { id: open.id, name: 'Open again', archived: false, position: 2 }, 'restored last under the name given');
  t.same(
    restored.stages.map((s) => s.name),
    ['Closed', 'OPEN', 'Open again'],
  );
  t.match((await stageEvents(open.id)).at(-1), { type: 'stage.updated', previous_attributes: { archived: true, position: null, name: 'Open' } });
});

t.test('the tools say an archived stage can be restored, and how', async (t) => {
  const { tools } = await studio.listTools();
  const described = (name: string) => JSON.stringify(tools.find((tool) => tool.name === name));
  t.notMatch(described('archive_stage'), /cannot be restored|cannot be undone/);
  t.match(described('archive_stage'), /update_stage with archived: false restores it/);
  t.match(described('update_stage'), /archived: false restores an archived stage/);
});
