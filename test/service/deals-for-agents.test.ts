import t from 'tap';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { client as restClient } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * Deals an agent can read in one call and move by name: stage and pipeline names and a
 * contact summary in the results (only what the credential may read), get_deal, a name
 * query, count_deals with totals, and stage by name on create and update (REST and tools).
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Deals Inc', workspace: 'Deals', email: 'boss@deals.test', defaultCountry: 'US' });
const W = ws.workspace.id;
const admin = restClient(stack.baseUrl, await stack.token(W, ['contacts:write', 'deals:write', 'schema:write']));

const connect = (bearer: string) => connectMcp(t, stack.baseUrl, 'crm', bearer);
const call = callTool;
const ok = okResult;

type Pipeline = { id: string; name: string; is_default: boolean; stages: { id: string; name: string }[] };
const pipelines = (await admin.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data;
const sales = pipelines.find((p) => p.is_default)!;
const other = (await admin.post<Pipeline>('/v1/pipelines', { name: 'Partners', stages: ['Intro', 'Negotiation', 'Signed'] })).body;
const writer = await connect(await stack.token(W, ['contacts:write', 'deals:write', 'schema:read']));

t.test('stage by name on create and update, resolved in the deal\'s pipeline; unknown names list the valid ones', async (t) => {
  const rest = await admin.post<{ stage_id: string; pipeline_id: string; id: string }>('/v1/deals', { name: 'By name', stage: 'negotiation' });
  t.equal(rest.status, 201);
  t.equal(rest.body.stage_id, sales.stages.find((s) => s.name === 'Negotiation')?.id, 'the default pipeline\'s Negotiation');
  const partner = await admin.post<{ stage_id: string; pipeline_id: string }>('/v1/deals', { name: 'Partner deal', pipeline_id: other.id, stage: 'Negotiation' });
  t.equal(partner.body.stage_id, other.stages.find((s) => s.name === 'Negotiation')?.id, 'the named pipeline\'s Negotiation');

  const unknown = await admin.post<{ error: { param: string; message: string } }>('/v1/deals', { name: 'Nope', stage: 'Closing' });
  t.equal(unknown.status, 400);
  t.match(unknown.body.error, { param: 'stage', message: /no active stage named "Closing". Valid names: .*"Negotiation"/ });
  const both = await admin.post<{ error: { param: string } }>('/v1/deals', { name: 'Nope', stage: 'Won', stage_id: sales.stages[0]!.id });
  t.equal(both.status, 400);

  const moved = ok(t, await call(writer, 'update_deal', { id: rest.body.id, stage: 'won' }));
  t.equal(moved.stage_id, sales.stages.find((s) => s.name === 'Won')?.id);
  const wrong = await call(writer, 'update_deal', { id: rest.body.id, stage: 'Signed' });
  t.match(wrong.structuredContent, { code: 'validation_failed', param: 'stage', message: /Valid names: "Lead"/ });
  const created = ok(t, await call(writer, 'create_deal', { name: 'Tool deal', stage: 'Qualified' }));
  t.equal(created.stage_id, sales.stages.find((s) => s.name === 'Qualified')?.id);
  const count = await stack.db.query<{ n: number }>(`select count(*)::int as n from deals where workspace_id = $1 and name = 'Nope'`, [W]);
  t.equal(count[0]?.n, 0, 'refused writes stored nothing');
});

t.test("a stage named or given by id from another pipeline says which pipeline holds it and that pipeline_id moves the deal there", async (t) => {
  const deal = ok(t, await call(writer, 'create_deal', { name: 'Reseller lead' }));
  const byName = await call(writer, 'update_deal', { id: deal.id, stage: 'signed' });
  t.match(byName.structuredContent, { code: 'validation_failed', param: 'stage' });
  t.match(byName.structuredContent?.message, new RegExp(`Valid names: "Lead".*in the pipeline "Partners" \\(${other.id}\\).*give that pipeline_id with the stage`));
  const created = await call(writer, 'create_deal', { name: 'Reseller lead 2', stage: 'Intro' });
  t.match(created.structuredContent?.message, new RegExp(`"Partners" \\(${other.id}\\)`), 'create_deal too');
  const signed = other.stages.find((s) => s.name === 'Signed')!;
  const byId = await call(writer, 'update_deal', { id: deal.id, stage_id: signed.id });
  t.match(byId.structuredContent, { code: 'validation_failed', param: 'stage_id', message: new RegExp(`belongs to the pipeline ${other.id}.*give pipeline_id ${other.id}`) });
  const followed = ok(t, await call(writer, 'update_deal', { id: deal.id, stage: 'signed', pipeline_id: other.id }));
  t.equal(followed.stage_id, signed.id, 'the advice followed moves the deal');
  const unknown = await call(writer, 'update_deal', { id: deal.id, stage: 'Closing' });
  t.notMatch(unknown.structuredContent?.message, /in the pipeline/, 'a name no pipeline has names none');
});

t.test('update tools describe updates, not create defaults', async (t) => {
  const { tools } = await writer.listTools();
  for (const name of ['update_deal', 'update_contact']) {
    const tool = tools.find((x) => x.name === name)!;
    t.notMatch(JSON.stringify(tool), /On create|Default on create/i, `${name} speaks of updates only`);
  }
});

t.test('deal results name the stage, the pipeline and the contact; the contact only for a connection that may read it', async (t) => {
  const ada = (await admin.post<{ id: string }>('/v1/contacts', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@deals.test', phone: '+1 415 555 0601' })).body;
  const deal = (await admin.post<{ id: string }>('/v1/deals', { name: 'Analytical Engine order', stage: 'Negotiation', amount: 250_000, currency: 'USD', contact_id: ada.id })).body;
  const got = ok(t, await call(writer, 'get_deal', { id: deal.id }));
  t.match(got, { stage_name: 'Negotiation', pipeline_name: sales.name, contact: { id: ada.id, name: 'Ada Lovelace', email: 'ada@deals.test', phone: '+14155550601' } });
  const found = ok(t, await call(writer, 'find_deals', { query: 'analytical ENGINE' })) as { deals: { id: string; contact: unknown }[]; applied_range: unknown };
  t.same(found.deals.map((d) => d.id), [deal.id], 'name words, case ignored');
  t.ok(found.applied_range, 'the applied range is echoed');
  t.same((ok(t, await call(writer, 'find_deals', { query: 'engine nothing' })) as { deals: unknown[] }).deals, [], 'every word must match');
  const rest = await admin.get<{ data: { id: string }[] }>('/v1/deals?q=analytical');
  t.same(rest.body.data.map((d) => d.id), [deal.id], 'q on the REST list too');

  const dealsOnly = await connect(await stack.token(W, ['deals:read']));
  const bare = ok(t, await call(dealsOnly, 'get_deal', { id: deal.id }));
  t.match(bare, { stage_name: 'Negotiation', contact_id: ada.id, contact: null }, 'no contacts:read: no contact details');
});

t.test('count_deals: the count and the amounts per stage and currency, with the same filters as find_deals', async (t) => {
  await admin.post('/v1/deals', { name: 'Euro deal', stage: 'Negotiation', amount: 1_000, currency: 'EUR' });
  await admin.post('/v1/deals', { name: 'No amount', stage: 'Negotiation' });
  const totals = ok(t, await call(writer, 'count_deals', { pipeline: sales.name })) as {
    count: number;
    by_stage: { stage_name: string; count: number; amounts: { currency: string; amount: number }[] }[];
    applied_range: { time_zone: string };
  };
  const negotiation = totals.by_stage.find((s) => s.stage_name === 'Negotiation');
  t.equal(negotiation?.count, 3, 'Analytical Engine order, Euro deal, No amount (By name moved on to Won)');
  t.same(negotiation?.amounts.sort((a, b) => a.currency.localeCompare(b.currency)), [{ currency: 'EUR', amount: 1_000 }, { currency: 'USD', amount: 250_000 }]);
  t.equal(totals.count, totals.by_stage.reduce((n, s) => n + s.count, 0));
  t.equal(totals.applied_range.time_zone, 'UTC');
  const stageNames = totals.by_stage.map((s) => s.stage_name);
  const order = sales.stages.map((s) => s.name).filter((n) => stageNames.includes(n));
  t.same(stageNames, order, 'in stage order');
  const today = ok(t, await call(writer, 'count_deals', { stage: 'Negotiation', created_within: 'today' })) as { count: number };
  t.equal(today.count, 4, 'created today, in every pipeline (Partner deal too)');
  const none = await call(writer, 'count_deals', { stage: 'Nowhere' });
  t.match(none.structuredContent, { code: 'not_found', param: 'stage' });
});

t.test('count_deals with a pipeline lists every active stage in order, those with no deals as 0', async (t) => {
  const empty = (await admin.post<Pipeline>('/v1/pipelines', { name: 'Quiet', stages: ['Lead', 'Proposal', 'Signed'] })).body;
  const none = ok(t, await call(writer, 'count_deals', { pipeline: 'Quiet' })) as { count: number; by_stage: { stage_id: string; stage_name: string; count: number; amounts: unknown[] }[] };
  t.equal(none.count, 0);
  t.same(none.by_stage.map((s) => [s.stage_name, s.count, s.amounts]), [['Lead', 0, []], ['Proposal', 0, []], ['Signed', 0, []]], 'the stages are there, not []');
  await admin.post('/v1/deals', { name: 'Quiet deal', pipeline_id: empty.id, stage: 'Proposal' });
  const one = ok(t, await call(writer, 'count_deals', { pipeline: empty.id })) as typeof none;
  t.same(one.by_stage.map((s) => [s.stage_name, s.count]), [['Lead', 0], ['Proposal', 1], ['Signed', 0]], 'in stage order, zero included');
  const byStage = ok(t, await call(writer, 'count_deals', { pipeline: 'Quiet', stage: 'Signed' })) as typeof none;
  t.same(byStage.by_stage, [], 'a stage filter keeps to stages with matching deals');
});

t.test('create_deal: a currency without an amount is kept as the currency to come, and its description says so', async (t) => {
  const { tools } = await writer.listTools();
  const currency = (tools.find((tool) => tool.name === 'create_deal')?.inputSchema.properties as Record<string, { description?: string }>).currency;
  t.match(currency?.description, /Required with an amount\. On a deal without an amount it only records the currency the amount will be in: the deal has no value\. On a deal with an amount, changing it alone changes the currency/);
  const deal = ok(t, await call(writer, 'create_deal', { name: 'Euro, amount to come', currency: 'eur' }));
  t.match(deal, { amount: null, currency: 'EUR' });
});

t.test('a stage or pipeline named with İ is found by its own name (Postgres folds İ to i, JavaScript to two characters)', async (t) => {
  const turkish = (await admin.post<Pipeline>('/v1/pipelines', { name: 'İhracat', stages: ['İletişim', 'Kapanış'] })).body;
  const deal = (await admin.post<{ id: string }>('/v1/deals', { name: 'Export deal', pipeline_id: turkish.id, stage: 'İletişim' })).body;
  await admin.post('/v1/deals', { name: 'Export deal two', pipeline_id: turkish.id, stage: 'Kapanış' });
  const byStage = await admin.get<{ data: { id: string }[] }>(`/v1/deals?stage=${encodeURIComponent('İletişim')}`);
  t.same(byStage.body.data?.map((d) => d.id), [deal.id], 'stage=İletişim');
  const counted = ok(t, await call(writer, 'count_deals', { pipeline: 'İhracat' })) as { count: number };
  t.equal(counted.count, 2, 'pipeline İhracat');
  const upper = await admin.post<{ stage_id: string }>('/v1/deals', { name: 'Export deal three', pipeline_id: turkish.id, stage: 'İLETİŞİM' });
  t.equal(upper.status, 201, 'a deal placed by the name in capitals, as the list filter finds it');
  t.equal(upper.body.stage_id, turkish.stages[0]!.id);
  const moved = ok(t, await call(writer, 'update_deal', { id: (await admin.post<{ id: string }>('/v1/deals', { name: 'Export deal four', pipeline_id: turkish.id, stage: 'Kapanış' })).body.id, stage: 'İLETİŞİM' }));
  t.equal(moved.stage_id, turkish.stages[0]!.id, 'and moved so');
});

t.test('LIKE characters in q match literally, fullwidth ones too (crm_unaccent() folds ％ ＿ to % _)', async (t) => {
  const percent = (await admin.post<{ id: string }>('/v1/deals', { name: '50%_discount', pipeline_id: other.id })).body;
  const apples = (await admin.post<{ id: string }>('/v1/deals', { name: '50 apples', pipeline_id: other.id })).body;
  const search = async (q: string) =>
    (await admin.get<{ data: { id: string }[] }>(`/v1/deals?pipeline_id=${other.id}&q=${encodeURIComponent(q)}`)).body.data?.map((d) => d.id);
  t.same(await search('50%'), [percent.id], '50%');
  t.same(await search('50％'), [percent.id], '50％ (fullwidth)');
  t.same(await search('％a'), [], '％a is no wildcard');
  t.same(await search('5＿'), [], '5＿ is no wildcard');
  t.same(await search('50 apples'), [apples.id]);
});

t.test('count_deals sums amounts past 2^53−1 exactly, as digits, instead of failing', async (t) => {
  const whales = (await admin.post<Pipeline>('/v1/pipelines', { name: 'Whales', stages: ['Huge', 'Small'] })).body;
  for (const name of ['Whale one', 'Whale two']) {
    const res = await admin.post('/v1/deals', { name, pipeline_id: whales.id, stage: 'Huge', amount: Number.MAX_SAFE_INTEGER, currency: 'USD' });
    t.equal(res.status, 201, 'the largest amount a deal takes');
  }
  await admin.post('/v1/deals', { name: 'Minnow', pipeline_id: whales.id, stage: 'Small', amount: 5, currency: 'JPY' });
  const totals = ok(t, await call(writer, 'count_deals', { pipeline: whales.id })) as { count: number; by_stage: { stage_name: string; amounts: unknown[] }[] };
  t.equal(totals.count, 3);
  t.same(
    totals.by_stage.map((s) => [s.stage_name, s.amounts]),
    [
      ['Huge', [{ currency: 'USD', amount: '18014398509481982' }]],
      ['Small', [{ currency: 'JPY', amount: 5 }]],
    ],
    'a sum a JSON number cannot hold exactly is its digits; the others stay numbers',
  );
});

t.test('count_deals lists pipelines in the order list_pipelines does (the default first, then oldest first), not by name', async (t) => {
  const zeta = (await admin.post<Pipeline>('/v1/pipelines', { name: 'Zeta order', stages: ['Ordered'] })).body;
  const alpha = (await admin.post<Pipeline>('/v1/pipelines', { name: 'Alpha order', stages: ['Ordered'] })).body;
  for (const p of [alpha, zeta]) await admin.post('/v1/deals', { name: `In ${p.name}`, pipeline_id: p.id });
  await admin.post('/v1/deals', { name: 'In the default', stage: 'Lead' });
  const totals = ok(t, await call(writer, 'count_deals', { query: 'in' })) as { by_stage: { pipeline_id: string }[] };
  const order = [...new Set(totals.by_stage.map((s) => s.pipeline_id))];
  const listed = (await admin.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data.map((p) => p.id).filter((id) => order.includes(id));
  t.same(order, listed, 'the same order as the pipeline list');
  t.ok(order.indexOf(zeta.id) < order.indexOf(alpha.id), 'Zeta, created first, before Alpha');
});

t.test("a stage id given as stage places the deal, as find_deals' stage takes one; its refusals name stage", async (t) => {
  const negotiation = sales.stages.find((s) => s.name === 'Negotiation')!;
  const created = ok(t, await call(writer, 'create_deal', { name: 'Stage by id', stage: negotiation.id }));
  t.equal(created.stage_id, negotiation.id);
  t.equal(((await call(writer, 'find_deals', { stage: negotiation.id })).structuredContent as { deals: { id: string }[] }).deals.some((d) => d.id === created.id), true, 'find_deals finds it by the same value');
  const won = sales.stages.find((s) => s.name === 'Won')!;
  t.equal(ok(t, await call(writer, 'update_deal', { id: created.id, stage: ` ${won.id}` })).stage_id, won.id, 'update_deal moves it');
  const rest = await admin.post<{ stage_id: string }>('/v1/deals', { name: 'Stage by id over REST', stage: negotiation.id });
  t.equal(rest.body.stage_id, negotiation.id, 'REST alike');
  const signed = other.stages.find((s) => s.name === 'Signed')!;
  const elsewhere = await call(writer, 'update_deal', { id: created.id, stage: signed.id });
  t.match(elsewhere.structuredContent, { code: 'validation_failed', param: 'stage', message: new RegExp(`^stage: the stage "Signed" belongs to the pipeline ${other.id}`) });
  const missing = await call(writer, 'create_deal', { name: 'Nowhere', stage: 'stg_01M8E7AKA16TX2MDSDCG16ZCD9' });
  t.match(missing.structuredContent, { code: 'not_found', param: 'stage' });
});

t.test('a stage name with a pipeline that has no stage of that name is a not_found naming where the name is, not an empty list', async (t) => {
  for (const tool of ['find_deals', 'count_deals']) {
    const refused = await call(writer, tool, { pipeline: 'sales', stage: 'Intro' });
    t.match(refused.structuredContent, { code: 'not_found', param: 'stage', message: new RegExp(`Its active stage names: "Lead".*A stage of that name is in the pipeline "Partners" \\(${other.id}\\)`) }, tool);
  }
  const rest = await admin.get<{ error: { code: string; param: string } }>(`/v1/deals?stage=intro&pipeline_id=${sales.id}`);
  t.match({ status: rest.status, ...rest.body.error }, { status: 404, code: 'not_found', param: 'stage' }, 'REST alike');
  // Before, only REST's pipeline_id was checked: the tools' pipeline by name answered another pipeline's stage id with no deals.
  const wonId = sales.stages.find((s) => s.name === 'Won')!.id;
  for (const tool of ['find_deals', 'count_deals']) {
    const refused = await call(writer, tool, { pipeline: 'Partners', stage: wonId });
    t.match(refused.structuredContent, { code: 'not_found', param: 'stage', message: new RegExp(`That stage is in the pipeline "[^"]+" \\(${sales.id}\\)`) }, `${tool}: another pipeline's stage id`);
  }
  ok(t, await call(writer, 'find_deals', { pipeline: 'Partners', stage: 'negotiation' }));
  ok(t, await call(writer, 'count_deals', { pipeline: other.id, stage: 'Intro' }));
});

t.test('amount and currency say at the argument what they take: minor units with an example, an ISO 4217 code', async (t) => {
  // Only the tool's description said "minor units": a model reading the argument alone sent 1500 for $1,500, stored as $15.00.
  const { tools } = await writer.listTools();
  for (const name of ['create_deal', 'update_deal']) {
    const properties = tools.find((tool) => tool.name === name)?.inputSchema.properties as Record<string, { description?: string }>;
    t.match(properties.amount?.description, /minor units.*150000 is 1,500.00 USD/, `${name} amount`);
    t.match(properties.currency?.description, /ISO 4217.*USD.*Required with an amount/, `${name} currency`);
  }
  // A refused currency's hint repeats what the argument takes.
  const refused = await call(writer, 'create_deal', { name: 'In dollars', amount: 150_000, currency: 'dollars' });
  t.match(refused.structuredContent, { code: 'validation_failed', param: 'currency', hint: /ISO 4217 code, e\.g\. USD/ });
});
