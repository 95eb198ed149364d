import t from 'tap';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Deal, ErrorBody, Pipeline } from '../helpers/api-types.js';
import type { PipelineWithStage } from '../../shared/contracts/pipelines.js';
import type { CustomField } from '../../shared/contracts/custom-fields.js';

/**
 * "Closed  Won" (two spaces), " Closed Won" or "Closed\u00a0Won" were accepted beside "Closed
 * Won": a near-duplicate that looks the same in every list. Pipeline and stage names and custom
 * field labels are now stored trimmed and single-spaced, compared with case and spacing ignored
 * (a name stored before too), and looked up by name the same way; a refusal names the one that
 * exists as it is stored.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Spacing Ltd', workspace: 'Spacing', email: 'owner@spacing.test' });
const W = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(W, ['deals:write', 'schema:write']));
const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write'], { name: 'Spacing agent' }));
const crm = await connectMcp(t, stack.baseUrl, 'crm', await stack.token(W, ['deals:read'], { name: 'Spacing reader' }));

const countOf = async (table: string) => Number((await stack.db.query<{ n: string }>(`select count(*) as n from ${table} where workspace_id = $1`, [W]))[0]?.n);

t.test('REST: pipeline and stage names are stored single-spaced, and one that differs only in spacing is a 409 naming the stored one', async (t) => {
  const created = await api.post<Pipeline>('/v1/pipelines', { name: '  Enterprise \u00a0 deals ', stages: ['Closed  Won', '\u3000Closed Lost'] });
  t.equal(created.status, 201);
  t.equal(created.body.name, 'Enterprise deals');
  t.same(created.body.stages.map((s) => s.name), ['Closed Won', 'Closed Lost']);
  const pipelines = await countOf('pipelines');
  const stages = await countOf('stages');

  const again = await api.post<ErrorBody>('/v1/pipelines', { name: 'enterprise  DEALS' });
  t.equal(again.status, 409);
  t.match(again.body.error, { param: 'name', existing_id: created.body.id, message: 'A pipeline called "Enterprise deals" already exists' });
  const stage = await api.post<ErrorBody>(`/v1/pipelines/${created.body.id}/stages`, { name: ' closed   won' });
  t.equal(stage.status, 409);
  t.match(stage.body.error, { param: 'name', existing_id: created.body.stages[0]?.id, message: /already has a stage called "Closed Won"/ });
  const lost = created.body.stages[1]!;
  const rename = await api.send<ErrorBody>('PATCH', `/v1/pipelines/${created.body.id}/stages/${lost.id}`, { body: { name: 'Closed\u2003Won' } });
  t.equal(rename.status, 409, 'a rename too');
  t.match(rename.body.error, { existing_id: created.body.stages[0]?.id, message: /"Closed Won"/ });
  const repeated = await api.post<ErrorBody>('/v1/pipelines', { name: 'Partners', stages: ['Signed deal', 'Signed  deal'] });
  t.equal(repeated.status, 400, 'two stage names of one create that differ only in spacing');
  t.equal(repeated.body.error.param, 'stages');
  t.equal(await countOf('pipelines'), pipelines, 'no pipeline added');
  t.equal(await countOf('stages'), stages, 'no stage added');

  const tab = await api.post<ErrorBody>('/v1/pipelines', { name: 'Closed\tWon' });
  t.equal(tab.status, 400, 'a tab is a control character, refused as before');
  t.match(tab.body.error, { param: 'name', message: /control characters/ });

  const renamed = await api.send<PipelineWithStage>('PATCH', `/v1/pipelines/${created.body.id}/stages/${lost.id}`, { body: { name: 'Closed   lost ' } });
  t.equal(renamed.status, 200);
  t.equal(renamed.body.stage.name, 'Closed lost', 'a rename is stored single-spaced');
});

t.test('REST: a deal placed or filtered by a stage or pipeline name finds it whatever the spacing', async (t) => {
  const pipeline = (await api.post<Pipeline>('/v1/pipelines', { name: 'Field  sales', stages: ['First call', 'Signed deal'] })).body;
  const deal = await api.post<Deal>('/v1/deals', { name: 'Spaced deal', pipeline_id: pipeline.id, stage: ' signed \u00a0deal' });
  t.equal(deal.status, 201, JSON.stringify(deal.body));
  t.equal(deal.body.stage_id, pipeline.stages[1]?.id);
  const byStage = await api.get<{ data: Deal[] }>(`/v1/deals?stage=${encodeURIComponent('Signed   Deal')}`);
  t.equal(byStage.status, 200);
  t.same(byStage.body.data.map((d) => d.id), [deal.body.id]);
  const found = okResult(t, await callTool(crm, 'find_deals', { pipeline: ' field sales', stage: 'signed\u00a0 deal' })) as { deals: { id: string }[] };
  t.same(
    found.deals.map((d) => d.id),
    [deal.body.id],
    'find_deals: a pipeline and a stage by name',
  );
});

t.test('a name stored before names were single-spaced is the same name: refused beside it, named as stored, and found by name', async (t) => {
  const pipeline = (await api.post<Pipeline>('/v1/pipelines', { name: 'Legacy', stages: ['Intro'] })).body;
  const stageId = pipeline.stages[0]!.id;
  // As a write stored it before the contracts single-spaced names.
  await stack.db.query(`update stages set name = 'Intro  call' where id = $1`, [stageId]);
  const taken = await api.post<ErrorBody>(`/v1/pipelines/${pipeline.id}/stages`, { name: 'Intro call' });
  t.equal(taken.status, 409);
  t.match(taken.body.error, { existing_id: stageId, message: 'This pipeline already has a stage called "Intro  call"' });
  const deal = await api.post<Deal>('/v1/deals', { name: 'Legacy deal', pipeline_id: pipeline.id, stage: 'intro call' });
  t.equal(deal.status, 201, JSON.stringify(deal.body));
  t.equal(deal.body.stage_id, stageId);
  const byStage = await api.get<{ data: Deal[] }>(`/v1/deals?stage=${encodeURIComponent('Intro call')}`);
  t.same(byStage.body.data.map((d) => d.id), [deal.body.id]);
  await stack.db.query(`update pipelines set name = ' Legacy\u00a0 book' where id = $1`, [pipeline.id]);
  const taken2 = await api.post<ErrorBody>('/v1/pipelines', { name: 'legacy book' });
  t.match(taken2.body.error, { existing_id: pipeline.id, message: 'A pipeline called " Legacy\u00a0 book" already exists' }, 'a pipeline too');
  const found = okResult(t, await callTool(crm, 'find_deals', { pipeline: 'Legacy book', stage: 'Intro call' })) as { deals: { id: string }[] };
  t.same(
    found.deals.map((d) => d.id),
    [deal.body.id],
    'find_deals: the pipeline and stage by name',
  );
});

t.test('REST: custom field labels are stored single-spaced', async (t) => {
  const field = await api.post<CustomField>('/v1/custom-fields', { object_type: 'deal', key: 'spaced_size', label: ' Deal \u00a0 size ', type: 'number' });
  t.equal(field.status, 201);
  t.equal(field.body.label, 'Deal size');
  const relabelled = await api.send<CustomField>('PATCH', `/v1/custom-fields/${field.body.id}`, { body: { label: 'Deal   value' } });
  t.equal(relabelled.body.label, 'Deal value');
});

t.test('Studio: the tools store names single-spaced and refuse one that differs only in spacing, naming the stored one', async (t) => {
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Channel  partners', stages: [' Onboarding  ', 'Live'] })) as unknown as Pipeline;
  t.equal(pipeline.name, 'Channel partners');
  t.same(
    pipeline.stages.map((s) => s.name),
    ['Onboarding', 'Live'],
  );
  const pipelines = await countOf('pipelines');
  const stages = await countOf('stages');
  for (const [tool, args, existing, stored] of [
    ['create_pipeline', { name: 'channel\u00a0partners' }, pipeline.id, 'A pipeline called "Channel partners"'],
    ['update_pipeline', { id: (await api.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data.find((p) => p.is_default)?.id, name: ' Channel   Partners' }, pipeline.id, 'A pipeline called "Channel partners"'],
    ['create_stage', { pipeline_id: pipeline.id, name: 'on boarding' }, undefined, undefined],
    ['create_stage', { pipeline_id: pipeline.id, name: 'ONBOARDING ' }, pipeline.stages[0]?.id, 'stage called "Onboarding"'],
    ['update_stage', { pipeline_id: pipeline.id, stage_id: pipeline.stages[1]?.id, name: '  onboarding' }, pipeline.stages[0]?.id, 'stage called "Onboarding"'],
  ] as const) {
    const r = await callTool(studio, tool, args);
    if (existing === undefined) {
      // Spacing inside a word is another name: only runs of spaces fold.
      okResult(t, r);
      continue;
    }
    t.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
    t.match(r.structuredContent, { code: 'conflict', param: 'name', existing_id: existing, message: new RegExp(stored) }, tool);
  }
  t.equal(await countOf('pipelines'), pipelines, 'no pipeline added');
  t.equal(await countOf('stages'), stages + 1, 'only "on boarding" added');

  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'contact', key: 'spaced_region', label: 'Sales \u3000region', type: 'text' }));
  t.equal(field.label, 'Sales region');
});

t.test('Studio: the name arguments say how names are kept and compared', async (t) => {
  const { tools } = await studio.listTools();
  const described = (name: string) => JSON.stringify(tools.find((x) => x.name === name)?.inputSchema);
  for (const name of ['create_pipeline', 'update_pipeline', 'create_stage', 'update_stage']) t.match(described(name), /runs of spaces/, name);
  t.match(described('create_custom_field'), /runs of spaces/, 'create_custom_field: label');
});
