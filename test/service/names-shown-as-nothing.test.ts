import t from 'tap';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Deal, ErrorBody, Pipeline } from '../helpers/api-types.js';
import type { PipelineWithStage } from '../../shared/contracts/pipelines.js';
import type { CustomField } from '../../shared/contracts/custom-fields.js';

/**
 * "Closed \u200bWon" (a zero-width space) was stored beside "Closed Won" and looked the same in
 * every list, and a lookup of "Closed Won" did not find it ("Closed\u200bWon" shows as "ClosedWon",
 * and is that name). Names are now compared without the
 * characters that show as nothing (as case and extra spaces are ignored), but stored and shown as
 * sent: a name stored with one stays editable, and a Persian name keeps its ZWNJ.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Hidden Names Ltd', workspace: 'Hidden Names', email: 'owner@hidden-names.test' });
const W = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(W, ['deals:write', 'schema:write']));
const crm = await connectMcp(t, stack.baseUrl, 'crm', await stack.token(W, ['deals:write'], { name: 'Hidden names agent' }));

const countOf = async (table: string) => Number((await stack.db.query<{ n: string }>(`select count(*) as n from ${table} where workspace_id = $1`, [W]))[0]?.n);

t.test('a stage or pipeline that differs only by characters that show as nothing is a 409 naming the existing one', async (t) => {
  const pipeline = (await api.post<Pipeline>('/v1/pipelines', { name: 'Hidden book', stages: ['Closed Won', 'Lead'] })).body;
  const won = pipeline.stages[0]!;
  const stages = await countOf('stages');
  for (const name of ['Closed \u200bWon', 'closed \u2060won', 'Closed W\u00adon', 'Closed Won\u{e0041}', '\u200fClosed Won\ufe0f']) {
    const taken = await api.post<ErrorBody>(`/v1/pipelines/${pipeline.id}/stages`, { name });
    t.equal(taken.status, 409, JSON.stringify(name));
    t.match(taken.body.error, { param: 'name', existing_id: won.id, message: /already has a stage called "Closed Won".*characters that show as nothing/ });
  }
  const rename = await api.send<ErrorBody>('PATCH', `/v1/pipelines/${pipeline.id}/stages/${pipeline.stages[1]!.id}`, { body: { name: 'Closed Won\u200b' } });
  t.equal(rename.status, 409, 'a rename too');
  t.equal(await countOf('stages'), stages, 'no stage added');
  const twin = await api.post<ErrorBody>('/v1/pipelines', { name: 'Hidden\u200b book' });
  t.equal(twin.status, 409, 'a pipeline too');
  t.match(twin.body.error, { existing_id: pipeline.id, message: /A pipeline called "Hidden book" already exists.*U\+200B/ });
  const repeated = await api.post<ErrorBody>('/v1/pipelines', { name: 'Hidden repeats', stages: ['Signed', 'Sig\u00adned'] });
  t.equal(repeated.status, 400, 'two stage names of one create');
  t.match(repeated.body.error, { param: 'stages', message: /"Signed" and "Sig\u00adned" are the same name.*U\+00AD/ });
});

t.test('a stage stored before with a hidden character is found by the name that shows, and holds the name', async (t) => {
  const pipeline = (await api.post<Pipeline>('/v1/pipelines', { name: 'Hidden legacy', stages: ['Intro', 'Closed Won'] })).body;
  const wonId = pipeline.stages[1]!.id;
  // As a write stored it before names were compared without such characters.
  await stack.db.query(`update stages set name = 'Closed \u200bWon' where id = $1`, [wonId]);
  const deal = await api.post<Deal>('/v1/deals', { name: 'Hidden deal', pipeline_id: pipeline.id, stage: 'Closed Won' });
  t.equal(deal.status, 201, JSON.stringify(deal.body));
  t.equal(deal.body.stage_id, wonId);
  const byStage = await api.get<{ data: Deal[] }>(`/v1/deals?pipeline_id=${pipeline.id}&stage=${encodeURIComponent('closed won')}`);
  t.equal(byStage.status, 200);
  t.same(byStage.body.data.map((d) => d.id), [deal.body.id], 'the stage filter');
  const found = okResult(t, await callTool(crm, 'find_deals', { pipeline: 'Hidden\u2060 legacy', stage: 'Closed Won' })) as { deals: { id: string }[] };
  t.same(found.deals.map((d) => d.id), [deal.body.id], 'find_deals: a pipeline and a stage by name');
  const prompt = (await crm.getPrompt({ name: 'pipeline_review', arguments: { from: '2026-01-01', pipeline: 'hidden legacy', stage: 'Closed\u00ad Won' } })).messages[0]?.content;
  t.match(prompt, { text: /count_deals with pipeline "Hidden legacy", stage "Closed \u200bWon"/ }, 'a prompt argument names it, written as stored');
  const completed = await crm.complete({ ref: { type: 'ref/prompt', name: 'pipeline_review' }, argument: { name: 'stage', value: 'closed w' }, context: { arguments: { pipeline: 'Hidden legacy' } } });
  t.same(completed.completion.values, ['Closed \u200bWon'], 'and completes as typed without the hidden character');
  const taken = await api.post<ErrorBody>(`/v1/pipelines/${pipeline.id}/stages`, { name: 'Closed Won' });
  t.equal(taken.status, 409);
  t.match(taken.body.error, { existing_id: wonId, message: /stage called "Closed \u200bWon".*U\+200B/ });
  const stored = await stack.db.query<{ name: string }>('select name from stages where id = $1', [wonId]);
  t.equal(stored[0]?.name, 'Closed \u200bWon', 'stored as it was');
  const joined = await api.post<ErrorBody>(`/v1/pipelines/${pipeline.id}/stages`, { name: 'ClosedWon' });
  t.equal(joined.status, 201, 'with the space between the words gone, it is another name');
  const respelt = await api.send<PipelineWithStage>('PATCH', `/v1/pipelines/${pipeline.id}/stages/${wonId}`, { body: { name: 'Closed Won' } });
  t.equal(respelt.status, 200, 'and respelt without it, by its own rename');
  t.equal(respelt.body.stage.name, 'Closed Won');
});

t.test('a Persian name with ZWNJ is accepted and stored as sent', async (t) => {
  const name = 'می\u200cخواهم';
  const pipeline = await api.post<Pipeline>('/v1/pipelines', { name: 'Hidden Persian', stages: [name, 'نیم\u200cفاصله'] });
  t.equal(pipeline.status, 201, JSON.stringify(pipeline.body));
  t.equal(pipeline.body.stages[0]?.name, name);
  const stored = await stack.db.query<{ name: string }>('select name from stages where id = $1', [pipeline.body.stages[0]!.id]);
  t.equal(stored[0]?.name, name, 'stored with its ZWNJ');
  const deal = await api.post<Deal>('/v1/deals', { name: 'Persian deal', pipeline_id: pipeline.body.id, stage: name });
  t.equal(deal.body.stage_id, pipeline.body.stages[0]?.id, 'and found by itself');
});

t.test('select options: a value with a soft hyphen names the option without it, and a field stored with one is still editable', async (t) => {
  const field = await api.post<CustomField>('/v1/custom-fields', { object_type: 'deal', key: 'hidden_tier', label: 'Hidden tier', type: 'select', options: ['Gold tier', 'Silver'] });
  t.equal(field.status, 201, JSON.stringify(field.body));
  const deal = await api.post<Deal>('/v1/deals', { name: 'Soft hyphen deal', custom_fields: { hidden_tier: 'Gold\u00ad tier' } });
  t.equal(deal.status, 201, JSON.stringify(deal.body));
  t.equal(deal.body.custom_fields.hidden_tier, 'Gold tier', 'stored as the option is written');
  const repeat = await api.send<ErrorBody>('PATCH', `/v1/custom-fields/${field.body.id}`, { body: { options: ['Gold tier', 'Silver', 'Sil\u200bver'] } });
  t.equal(repeat.status, 400, 'an option that differs only by a hidden character is a repeat');
  t.match(repeat.body.error, { param: 'options', message: /"Silver" and "Sil\u200bver" are the same name.*U\+200B/ });

  // As a write stored them before: a label and an option with a character that shows as nothing, and a record holding the option.
  await stack.db.query(`update custom_fields set label = 'Hidden\u00adtier', options = '["Gold\u200btier", "Silver"]'::jsonb where id = $1`, [field.body.id]);
  await stack.db.query(`update deals set custom_fields = jsonb_set(custom_fields, '{hidden_tier}', '"Gold\u200btier"') where id = $1`, [deal.body.id]);
  const unchanged = await api.send<CustomField>('PATCH', `/v1/custom-fields/${field.body.id}`, { body: { label: 'Hidden\u00adtier', options: ['Gold\u200btier', 'Silver', 'Bronze'], required: false } });
  t.equal(unchanged.status, 200, `sent back as stored, with an option added: ${JSON.stringify(unchanged.body)}`);
  t.same(unchanged.body.options, ['Gold\u200btier', 'Silver', 'Bronze']);
  t.equal(unchanged.body.label, 'Hidden\u00adtier');
  const value = await api.send<Deal>('PATCH', `/v1/deals/${deal.body.id}`, { body: { custom_fields: { hidden_tier: 'Goldtier' } } });
  t.equal(value.status, 200, 'a value without the hidden character names the stored option');
  t.equal(value.body.custom_fields.hidden_tier, 'Gold\u200btier');
  const cleaned = await api.send<CustomField>('PATCH', `/v1/custom-fields/${field.body.id}`, { body: { label: 'Hidden tier', options: ['Goldtier', 'Silver', 'Bronze'] } });
  t.equal(cleaned.status, 200, `the hidden character taken out while a record holds the option: ${JSON.stringify(cleaned.body)}`);
  t.same(cleaned.body.options, ['Goldtier', 'Silver', 'Bronze']);
});
