import t from 'tap';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { client as restClient } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * CRM and Studio tools whose answers a small model cannot misread: count_deals lists every
 * stage that exists, a name where an id goes is answered with the id it names, and an
 * archived stage's refusal says it can be restored.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Tillerman Cartography', workspace: 'Charts', email: 'founder@tillerman-charts.test', defaultCountry: 'GB' });
const W = ws.workspace.id;
const admin = restClient(stack.baseUrl, await stack.token(W, ['contacts:write', 'deals:write', 'schema:write']));

type Pipeline = { id: string; name: string; is_default: boolean; stages: { id: string; name: string }[] };
type Totals = { count: number; by_stage: { stage_id: string; stage_name: string; pipeline_id: string; pipeline_name: string; count: number }[] };
const main = (await admin.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data.find((p) => p.is_default)!;
const surveys = (await admin.post<Pipeline>('/v1/pipelines', { name: 'Surveys', stages: ['Requested', 'Charted'] })).body;
const crm = await connectMcp(t, stack.baseUrl, 'crm', await stack.token(W, ['contacts:write', 'deals:write', 'schema:read']));

t.test('count_deals without a pipeline lists every active stage of every active pipeline, those with no deals as 0', async (t) => {
  const first = main.stages[0]!;
  await admin.post('/v1/deals', { name: 'Coastal chart', stage_id: first.id });
  const totals = okResult(t, await callTool(crm, 'count_deals')) as Totals;
  t.equal(totals.count, 1);
  const expected = [...main.stages.map((s) => [main.name, s.name, s.id === first.id ? 1 : 0]), ...surveys.stages.map((s) => [surveys.name, s.name, 0])];
  t.same(totals.by_stage.map((s) => [s.pipeline_name, s.stage_name, s.count]), expected, 'empty stages and a pipeline without deals are there, in pipeline and stage order');
  const filtered = okResult(t, await callTool(crm, 'count_deals', { query: 'nothing like this' })) as Totals;
  t.equal(filtered.count, 0);
  t.equal(filtered.by_stage.length, expected.length, 'other filters matching nothing still list every stage, as 0');
  const byStage = okResult(t, await callTool(crm, 'count_deals', { stage: first.name })) as Totals;
  t.same(byStage.by_stage.map((s) => s.stage_id), [first.id], 'a stage filter keeps to the stages holding matching deals');
  const { tools } = await crm.listTools();
  t.match(tools.find((tool) => tool.name === 'count_deals')?.description, /of every active pipeline/);
});

t.test('a pipeline or stage name where its id goes is refused with the id(s) of that name, in the caller\'s workspace only', async (t) => {
  const deal = okResult(t, await callTool(crm, 'create_deal', { name: 'Harbour survey' }));
  const moved = await callTool(crm, 'update_deal', { id: deal.id, pipeline_id: ' surveys ' });
  t.match(moved.structuredContent, { code: 'not_found', param: 'pipeline_id', hint: `"surveys" is the name of the pipeline ${surveys.id}, not an id (pipe_…): call again with pipeline_id "${surveys.id}".` });
  t.equal(okResult(t, await callTool(crm, 'update_deal', { id: deal.id, pipeline_id: surveys.id })).pipeline_id, surveys.id, 'the retry the hint says moves the deal');
  const created = await callTool(crm, 'create_deal', { name: 'Estuary survey', pipeline_id: 'SURVEYS' });
  t.match(created.structuredContent, { code: 'not_found', hint: new RegExp(`call again with pipeline_id "${surveys.id}"`) }, 'create_deal too');

  const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write']));
  const soundings = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Soundings', stages: ['Requested', 'Sounded'] })) as Pipeline;
  const addStage = await callTool(studio, 'create_stage', { pipeline_id: 'Soundings', name: 'Plotted' });
  t.match(addStage.structuredContent, { code: 'not_found', param: 'pipeline_id', hint: new RegExp(`pipeline ${soundings.id}, not an id`) }, 'Studio: create_stage');
  const requested = (p: Pipeline) => p.stages.find((s) => s.name === 'Requested')!.id;
  const inPipeline = await callTool(studio, 'update_stage', { pipeline_id: soundings.id, stage_id: 'requested', name: 'Asked for' });
  t.match(
    inPipeline.structuredContent,
    { code: 'not_found', param: 'stage_id', hint: `"requested" is the name of the stage ${requested(soundings)} (pipeline "Soundings", ${soundings.id}), not an id (stg_…): call again with stage_id "${requested(soundings)}".` },
    'a stage of the pipeline the call names, though Surveys has one of that name too',
  );
  const unknown = await callTool(studio, 'update_stage', { pipeline_id: 'Nowhere at all', stage_id: 'x', name: 'Anything' });
  t.match(unknown.structuredContent, { code: 'not_found', hint: /not a pipeline id/ }, 'a name nothing has: the usual hint');

  // Another workspace's pipeline of a name this one lacks is never named.
  const rival = await stack.bootstrap({ org: 'Halyard Soundings Co', workspace: 'Depths', email: 'chief@halyard-soundings.test', defaultCountry: 'GB' });
  const rivalAdmin = restClient(stack.baseUrl, await stack.token(rival.workspace.id, ['schema:write']));
  const hidden = (await rivalAdmin.post<Pipeline>('/v1/pipelines', { name: 'Hydrography', stages: ['Logged'] })).body;
  const crossed = await callTool(crm, 'update_deal', { id: deal.id, pipeline_id: 'Hydrography' });
  t.match(crossed.structuredContent, { code: 'not_found', param: 'pipeline_id' });
  t.notMatch(JSON.stringify(crossed), hidden.id, "the other workspace's id is not given");
  t.match(crossed.structuredContent?.hint, /not a pipeline id/, 'the usual hint: where the ids are listed');
});

t.test('a stage name several pipelines share is refused with every candidate, none chosen', async (t) => {
  const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write']));
  const pipelines = (okResult(t, await callTool(studio, 'list_pipelines')) as { pipelines: Pipeline[] }).pipelines;
  const requested = pipelines.flatMap((p) => p.stages.filter((s) => s.name === 'Requested').map((s) => [s.id, p.id]));
  t.equal(requested.length, 2, 'Surveys and Soundings both have Requested');
  const refused = await callTool(studio, 'archive_stage', { pipeline_id: main.id, stage_id: 'REQUESTED' });
  t.match(refused.structuredContent, { code: 'not_found', param: 'stage_id', hint: /^"REQUESTED" is not an id \(stg_…\) but a name 2 stages have: .*Call again with the stage_id of the one meant \(and its pipeline_id\); ask the user which/ });
  for (const [stage, pipeline] of requested) t.match(refused.structuredContent?.hint, `${stage} (pipeline "`, `names ${stage}, with its pipeline ${pipeline}`);
  for (const [, pipeline] of requested) t.match(refused.structuredContent?.hint, `, ${pipeline})`);
  const after = (okResult(t, await callTool(studio, 'list_pipelines')) as { pipelines: Pipeline[] }).pipelines;
  t.same(after, pipelines, 'nothing archived');
});

t.test('a deal moved into an archived stage is told the stage can be restored: over REST by the restore call, on CRM by someone with Studio access', async (t) => {
  const pipeline = (await admin.post<Pipeline>('/v1/pipelines', { name: 'Tide tables', stages: ['Drafted', 'Checked', 'Printed'] })).body;
  const [drafted, checked] = pipeline.stages;
  const deal = (await admin.post<{ id: string }>('/v1/deals', { name: 'Spring tides', pipeline_id: pipeline.id, stage_id: drafted!.id })).body;
  t.equal((await admin.send('DELETE', `/v1/pipelines/${pipeline.id}/stages/${checked!.id}`)).status, 200);

  const rest = await admin.send<{ error: { code: string; param: string; message: string } }>('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: checked!.id } });
  t.equal(rest.status, 400);
  t.match(rest.body.error, {
    code: 'validation_failed',
    param: 'stage_id',
    reason: 'stage_archived',
    message: `stage_id: the stage "Checked" is archived; deals cannot move into it until it is restored (archived: false, with PATCH /v1/pipelines/${pipeline.id}/stages/${checked!.id} or Studio's update_stage); or move the deal to an active stage.`,
  });

  const refused = await callTool(crm, 'update_deal', { id: deal.id, stage_id: checked!.id });
  t.ok(refused.isError);
  t.match(refused.structuredContent, { code: 'validation_failed', param: 'stage_id', reason: 'stage_archived', message: /"Checked" is archived/ });
  t.match(refused.structuredContent?.hint, /^The stage is archived, and this CRM connection cannot restore it: .*someone with Studio access .*update_stage with archived: false/);
  t.match(refused.content?.[0]?.text, /Hint: The stage is archived, and this CRM connection cannot restore it/, 'in the text as well');
  const created = await callTool(crm, 'create_deal', { name: 'Neap tides', pipeline_id: pipeline.id, stage_id: checked!.id });
  t.match(created.structuredContent?.hint, /this CRM connection cannot restore it/, 'create_deal too');
  t.equal((await admin.get<{ stage_id: string }>(`/v1/deals/${deal.id}`)).body.stage_id, drafted!.id, 'the deal stayed');

  // The advice followed: restored on Studio, the CRM move goes through.
  const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write']));
  okResult(t, await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: checked!.id, archived: false }));
  t.equal(okResult(t, await callTool(crm, 'update_deal', { id: deal.id, stage_id: checked!.id })).stage_id, checked!.id);
});

t.test('a stage name an active and an archived stage share names the active one, as the workers choose it', async (t) => {
  const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write']));
  const charted = surveys.stages.find((s) => s.name === 'Charted')!;
  t.equal((await admin.send('DELETE', `/v1/pipelines/${surveys.id}/stages/${charted.id}`)).status, 200, 'Charted archived');
  const again = (await admin.post<{ stage: { id: string } }>(`/v1/pipelines/${surveys.id}/stages`, { name: 'Charted' })).body.stage;
  const refused = await callTool(studio, 'update_stage', { pipeline_id: surveys.id, stage_id: 'charted', name: 'Drawn' });
  t.match(refused.structuredContent, { code: 'not_found', hint: `"charted" is the name of the stage ${again.id} (pipeline "Surveys", ${surveys.id}), not an id (stg_…): call again with stage_id "${again.id}".` });
  t.notMatch(JSON.stringify(refused), charted.id, 'not the archived one');
});
