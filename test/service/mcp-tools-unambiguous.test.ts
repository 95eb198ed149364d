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
