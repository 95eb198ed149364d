import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import { TestAgent } from '../helpers/mcp-oauth-agent.js';
import { authorizeWithForms } from '../helpers/oauth-forms.js';
import { TEST_PASSWORD } from '../helpers/stack.js';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { useStack } from '../helpers/shared-stack.js';
import { storedEvents } from '../helpers/stored-events.js';
import { request } from '../helpers/http.js';

/**
 * The Studio server as an agent uses it, through the MCP SDK's own client: a refused change
 * is a tool error that says what to do next, and changes nothing.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Studio Inc', workspace: 'Studio', email: 'boss@studio.test' });
const W = ws.workspace.id;
const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write'], { name: 'Studio agent' }));

type Pipeline = { id: string; stages: { id: string; name: string; position: number | null; archived: boolean }[] };

const eventsOf = async (objectType: string) => (await storedEvents(stack.db, W)).filter((e) => e.object_type === objectType);

t.test('create_stage refuses a stage past the most a pipeline may have, as create_pipeline does', async (t) => {
  const names = Array.from({ length: 50 }, (_, i) => `Step ${i + 1}`);
  t.equal((await callTool(studio, 'create_pipeline', { name: 'Too long', stages: [...names, 'Step 51'] })).isError, true, 'create_pipeline takes at most 50');
  const full = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Full', stages: names })) as unknown as Pipeline;
  const stageEvents = (await eventsOf('stage')).length;

  const refused = await callTool(studio, 'create_stage', { pipeline_id: full.id, name: 'Step 51' });
  t.equal(refused.isError, true);
  t.match(refused.structuredContent, { code: 'conflict', message: /at most 50 active stages/ });
  const after = okResult(t, await callTool(studio, 'get_pipeline', { id: full.id })) as unknown as Pipeline;
  t.equal(after.stages.length, 50, 'nothing was added');
  t.equal((await eventsOf('stage')).length, stageEvents, 'nor recorded');

  // Archiving one makes room again.
  okResult(t, await callTool(studio, 'archive_stage', { pipeline_id: full.id, stage_id: full.stages[0]?.id }));
  const added = okResult(t, await callTool(studio, 'create_stage', { pipeline_id: full.id, name: 'Step 51' })) as unknown as Pipeline;
  t.equal(added.stages.filter((s) => !s.archived).length, 50);
});

t.test('a pipeline that is not there is named by the argument that gave it: pipeline_id in the stage tools', async (t) => {
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: Pipeline[] }).pipelines[0];
  const stageId = sales?.stages[0]?.id;
  for (const [tool, args] of [
    ['create_stage', { pipeline_id: 'pipe_nope', name: 'Anything' }],
    ['update_stage', { pipeline_id: 'pipe_nope', stage_id: stageId, name: 'Anything' }],
    ['archive_stage', { pipeline_id: 'pipe_nope', stage_id: stageId }],
    // A stage's id where the pipeline's goes: the slip this error is there to correct.
    ['create_stage', { pipeline_id: stageId, name: 'Anything' }],
  ] as const) {
    const missing = await callTool(studio, tool, args);
    t.match(missing.structuredContent, { code: 'not_found', param: 'pipeline_id', hint: /list_pipelines/ }, `${tool} ${args.pipeline_id}`);
  }
  t.match((await callTool(studio, 'get_pipeline', { id: 'pipe_nope' })).structuredContent, { code: 'not_found', param: 'id' }, 'get_pipeline takes it as id');
});

t.test('a name or key already taken is a conflict that says what to do: another name, or the field that has the key', async (t) => {
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'source', label: 'Source', type: 'text' }));
  okResult(t, await callTool(studio, 'archive_custom_field', { id: field.id }));
  const fieldEvents = (await eventsOf('custom_field')).length;
  // The key is not in list_custom_fields (archived fields are left out by default): the error names the field.
  const again = await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'source', label: 'Lead source', type: 'select', options: ['web'] });
  t.match(again.structuredContent, { code: 'conflict', param: 'key', existing_id: field.id, message: /archived/, hint: new RegExp(`${String(field.id)}.*update_custom_field.*archived: false.*another key`) });
  t.equal((await eventsOf('custom_field')).length, fieldEvents, 'nothing recorded');
  const listed = okResult(t, await callTool(studio, 'list_custom_fields', { object_type: 'deal', include_archived: true })) as unknown as { custom_fields: { key: string }[] };
  t.same(listed.custom_fields.map((f) => f.key), ['source'], 'nothing created');

  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Partners', stages: ['Intro', 'Pilot'] })) as unknown as Pipeline;
  const pilot = pipeline.stages[1];
  for (const [tool, args] of [
    ['create_pipeline', { name: 'partners' }],
    ['create_stage', { pipeline_id: pipeline.id, name: 'INTRO' }],
    ['update_stage', { pipeline_id: pipeline.id, stage_id: pilot?.id, name: 'intro' }],
  ] as const) {
    const taken = await callTool(studio, tool, args);
    t.match(taken.structuredContent, { code: 'conflict', param: 'name', hint: /another name.*case.*use the one that exists \((pipe|stg)_\w+\): list_pipelines lists the pipelines with their stages\.$/ }, tool);
    t.notMatch(taken.structuredContent?.hint, /list_custom_fields/, `${tool}: a name taken is not looked for among the custom fields`);
  }
  // A create retried without an idempotency key: the pipeline it made is named, to go on with.
  t.match((await callTool(studio, 'create_pipeline', { name: 'Partners', stages: ['Intro', 'Pilot'] })).structuredContent, { code: 'conflict', existing_id: pipeline.id });
  const after = okResult(t, await callTool(studio, 'get_pipeline', { id: pipeline.id })) as unknown as Pipeline;
  t.same(after.stages.map((s) => s.name), ['Intro', 'Pilot'], 'nothing renamed or added');
});

t.test('the design stops growing before describe_schema would no longer fit in one bus message', async (t) => {
  const bulky = (i: number) => Array.from({ length: 200 }, (_, n) => `${i}-${n} `.padEnd(100, 'o'));
  const fieldEvents = (await eventsOf('custom_field')).length;
  let refused: Record<string, unknown> | undefined;
  let created = 0;
  // 200 options of 100 characters are some 20 KB a field: fifty of them were more than the bus carries.
  for (let i = 0; i < 60 && !refused; i++) {
    const r = await callTool(studio, 'create_custom_field', { object_type: 'contact', key: `bulky_${i}`, label: `Bulky ${i}`, type: 'select', options: bulky(i) });
    if (r.isError) refused = r.structuredContent;
    else created++;
  }
  t.match(refused, { code: 'conflict', message: /at most 512 KB/ }, 'a field past the limit is refused');
  t.equal((await eventsOf('custom_field')).length, fieldEvents + created, 'and not recorded');
  const schema = await studio.readResource({ uri: 'crm://schema' });
  const described = JSON.parse(String((schema.contents[0] as { text: string }).text)) as { custom_fields: { contact: unknown[] } };
  t.equal(described.custom_fields.contact.length, created, 'the schema still reads, with every field that was accepted');

  // Growing a field that is there is refused the same way; archiving one makes room.
  const fields = (okResult(t, await callTool(studio, 'list_custom_fields', { object_type: 'contact' })) as unknown as { custom_fields: { id: string; key: string }[] }).custom_fields;
  const small = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'contact', key: 'small', label: 'Small', type: 'select', options: ['a'] }));
  t.match((await callTool(studio, 'update_custom_field', { id: small.id, options: bulky(99) })).structuredContent, { code: 'conflict', message: /at most 512 KB/ });
  okResult(t, await callTool(studio, 'archive_custom_field', { id: fields[0]?.id }));
  okResult(t, await callTool(studio, 'update_custom_field', { id: small.id, options: bulky(99) }));

  // A design already past the limit (grown before the limit existed) can be trimmed: a change
  // that does not grow it passes. Before, every change was refused, removing options too, as the message advised.
  const inflated = Array.from({ length: 20 }, (_, i) => bulky(100 + i)).flat();
  await stack.db.query(`update custom_fields set options = $1::jsonb where id = $2`, [JSON.stringify(inflated), small.id]);
  okResult(t, await callTool(studio, 'update_custom_field', { id: small.id, label: 'Tiny' }));
  t.match((await callTool(studio, 'update_custom_field', { id: small.id, label: 'A longer label than before' })).structuredContent, { code: 'conflict' }, 'growing it still is not');
  const trimmed = okResult(t, await callTool(studio, 'update_custom_field', { id: small.id, options: inflated.slice(0, 10) }));
  t.equal((trimmed as { options: unknown[] }).options.length, 10, 'fewer options: accepted');
});

t.test('the descriptions say what the refusals do: names are unique with case ignored', async (t) => {
  const { tools } = await studio.listTools();
  const described = (name: string) => JSON.stringify(tools.find((x) => x.name === name));
  // "Intro" and "INTRO" are one name to the service (the conflict test above): an agent told only "unique" tries the other case.
  for (const name of ['create_pipeline', 'update_pipeline', 'create_stage', 'update_stage']) t.match(described(name), /unique[^"]*\(case ignored\)/, name);
});

t.test('update_pipeline renames a pipeline or makes it the default, as PATCH /v1/pipelines/{id} does', async (t) => {
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Renewals', stages: ['Due', 'Renewed'] })) as unknown as Pipeline & { name: string };
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: (Pipeline & { name: string; is_default: boolean })[] }).pipelines.find((p) => p.is_default);
  const pipelineEvents = (await eventsOf('pipeline')).length;

  const taken = await callTool(studio, 'update_pipeline', { id: pipeline.id, name: sales?.name.toUpperCase() });
  t.match(taken.structuredContent, { code: 'conflict', param: 'name', existing_id: sales?.id, hint: /another name.*case.*list_pipelines/ }, 'a name in use names its pipeline');
  t.match((await callTool(studio, 'update_pipeline', { id: 'pipe_nope', name: 'Anything' })).structuredContent, { code: 'not_found', param: 'id', hint: /list_pipelines/ });
  t.equal((await eventsOf('pipeline')).length, pipelineEvents, 'a refusal records nothing');

  const renamed = okResult(t, await callTool(studio, 'update_pipeline', { id: pipeline.id, name: 'Renewals 2027' }));
  t.match(renamed, { id: pipeline.id, name: 'Renewals 2027', is_default: false });
  const made = okResult(t, await callTool(studio, 'update_pipeline', { id: pipeline.id, is_default: true }));
  t.match(made, { is_default: true });
  const after = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: (Pipeline & { is_default: boolean })[] }).pipelines;
  t.same(after.filter((p) => p.is_default).map((p) => p.id), [pipeline.id], 'one default, the new one');

  const recorded = (await eventsOf('pipeline')).slice(pipelineEvents);
  t.same(
    recorded.map((e) => [e.type, e.object_id, e.previous_attributes, e.actor.kind, e.actor.name]),
    [
      ['pipeline.updated', pipeline.id, { name: 'Renewals' }, 'api_token', 'Studio agent'],
      ['pipeline.updated', sales?.id, { is_default: true }, 'api_token', 'Studio agent'],
      ['pipeline.updated', pipeline.id, { is_default: false }, 'api_token', 'Studio agent'],
    ],
    'each change recorded with what it was, by the agent',
  );
  // Back as it was, for the tests after this one.
  okResult(t, await callTool(studio, 'update_pipeline', { id: sales?.id, is_default: true }));
});

t.test('select options that differ only in case are one option twice: refused on create and update, through Studio and REST alike', async (t) => {
  const rest = await stack.token(W, ['schema:write'], { name: 'Design script' });
  const fieldEvents = (await eventsOf('custom_field')).length;
  const refused = await callTool(studio, 'create_custom_field', { object_type: 'contact', key: 'channel', label: 'Channel', type: 'select', options: ['Web', 'Phone', 'web'] });
  t.match(refused.structuredContent, { code: 'validation_failed', param: 'options', message: /unique.*case and extra spaces ignored/, hint: /options/ });
  const posted = await request(`${stack.baseUrl}/v1/custom-fields`, { token: rest, body: { object_type: 'contact', key: 'channel', label: 'Channel', type: 'select', options: ['Web', 'Phone', 'web'] } });
  t.match(posted, { status: 400, body: { error: { code: 'validation_failed', param: 'options', message: refused.structuredContent?.message } } }, 'REST says the same');

  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'contact', key: 'channel', label: 'Channel', type: 'select', options: ['Web', 'Phone'] }));
  t.match((await callTool(studio, 'update_custom_field', { id: field.id, options: ['Web', 'Phone', 'PHONE'] })).structuredContent, { code: 'validation_failed', param: 'options' });
  const patched = await request(`${stack.baseUrl}/v1/custom-fields/${String(field.id)}`, { method: 'PATCH', token: rest, body: { options: ['Web', 'Phone', 'PHONE'] } });
  t.match(patched, { status: 400, body: { error: { code: 'validation_failed', param: 'options' } } });
  // Changing an option's case alone is a new list without a repeat: accepted.
  t.same(okResult(t, await callTool(studio, 'update_custom_field', { id: field.id, options: ['web', 'Phone'] })).options, ['web', 'Phone']);
  t.equal((await eventsOf('custom_field')).length, fieldEvents + 2, 'only the create and the accepted change are recorded');
});

t.test('a key, type or stage list given to a tool that cannot change it says what can, instead of a retry that changes nothing', async (t) => {
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'region', label: 'Region', type: 'text' }));
  for (const [param, args] of [
    ['key', { key: 'territory' }],
    ['type', { type: 'select', options: ['North'] }],
  ] as const) {
    const refused = await callTool(studio, 'update_custom_field', { id: field.id, ...args });
    t.match(refused.structuredContent, { code: 'validation_failed', param, hint: /never change.*nothing was changed.*create_custom_field/ }, param);
  }
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Resellers', stages: ['Intro', 'Signed'] })) as unknown as Pipeline;
  const reorder = await callTool(studio, 'update_pipeline', { id: pipeline.id, stages: ['Signed', 'Intro'] });
  t.match(reorder.structuredContent, { code: 'validation_failed', param: 'stages', hint: /one at a time.*nothing was changed.*create_stage.*update_stage.*position.*archive_stage/ });
  // Another unknown argument keeps the usual hint.
  t.match((await callTool(studio, 'update_custom_field', { id: field.id, colour: 'red' })).structuredContent, { hint: 'Call again with only the valid parameters listed.' });
  // Before, an argument named as an Object.prototype member found that function as its hint: a protocol error, not a tool error.
  for (const name of ['toString', 'constructor', 'hasOwnProperty']) {
    const odd = await callTool(studio, 'update_custom_field', JSON.parse(`{"id": "${field.id}", "${name}": "x"}`) as Record<string, unknown>);
    t.match(odd.structuredContent, { code: 'validation_failed', hint: 'Call again with only the valid parameters listed.' }, name);
  }
  t.same(okResult(t, await callTool(studio, 'get_pipeline', { id: pipeline.id })).stages, pipeline.stages, 'nothing changed');
});

t.test('a repeated stage name or option is quoted with the one it repeats, saying case is ignored, through Studio and REST alike', async (t) => {
  const rest = await stack.token(W, ['schema:write'], { name: 'Repeat script' });
  const stages = await callTool(studio, 'create_pipeline', { name: 'Repeats', stages: ['Lead', 'Won', 'lead'] });
  t.match(stages.structuredContent, { code: 'validation_failed', param: 'stages', message: 'stages: stage names must be unique (case and extra spaces ignored): "Lead" and "lead" are the same name' });
  const posted = await request(`${stack.baseUrl}/v1/pipelines`, { token: rest, body: { name: 'Repeats', stages: ['Lead', 'Won', 'lead'] } });
  t.match(posted, { status: 400, body: { error: { code: 'validation_failed', param: 'stages', message: stages.structuredContent?.message } } }, 'REST says the same');
  const options = await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'repeats', label: 'Repeats', type: 'select', options: ['Web', 'Phone', 'WEB'] });
  t.match(options.structuredContent, { code: 'validation_failed', param: 'options', message: 'options: options must be unique (case and extra spaces ignored): "Web" and "WEB" are the same name' });
  t.equal(((await request(`${stack.baseUrl}/v1/pipelines`, { token: rest })).body.data as { name: string }[]).filter((p) => p.name === 'Repeats').length, 0, 'nothing created');
});

t.test('a name or option written with a combining accent is the same as the precomposed one: kept in NFC, through Studio and REST alike', async (t) => {
  const [composed, combining] = ['Caf\u00e9', 'Cafe\u0301'];
  const rest = await stack.token(W, ['schema:write', 'deals:write'], { name: 'Unicode script' });
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'R\u00e9seau', stages: [composed, 'Done'] })) as unknown as Pipeline;
  const taken = await callTool(studio, 'create_stage', { pipeline_id: pipeline.id, name: combining });
  t.match(taken.structuredContent, { code: 'conflict', param: 'name', existing_id: pipeline.stages[0]?.id }, 'create_stage: the stage that looks the same is named');
  const posted = await request(`${stack.baseUrl}/v1/pipelines`, { token: rest, body: { name: 'Re\u0301seau' } });
  t.match(posted, { status: 409, body: { error: { code: 'conflict', param: 'name' } } }, 'POST /v1/pipelines');
  t.match((await callTool(studio, 'create_pipeline', { name: 'Twice', stages: [composed, combining] })).structuredContent, { code: 'validation_failed', param: 'stages' });
  t.match((await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'drink', label: 'Drink', type: 'select', options: [composed, combining] })).structuredContent, {
    code: 'validation_failed',
    param: 'options',
  });

  // Stored in NFC, so a later read compares equal to what the user sees.
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'drink', label: 'Drink', type: 'select', options: [combining, 'Tea'] }));
  t.same(field.options, [composed, 'Tea']);
  const renamed = okResult(t, await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: pipeline.stages[1]?.id, name: 'Cre\u0300me' })) as unknown as Pipeline;
  t.equal(renamed.stages[1]?.name, 'Cr\u00e8me');
  // A value written either way is the option, stored as the option is.
  const deal = await request<{ custom_fields: Record<string, unknown> }>(`${stack.baseUrl}/v1/deals`, {
    token: rest,
    body: { name: 'Coffee order', pipeline_id: pipeline.id, custom_fields: { drink: combining } },
  });
  t.equal(deal.status, 201, JSON.stringify(deal.body));
  t.equal(deal.body.custom_fields.drink, composed);
  // Before, a stage or pipeline looked up by name compared the name as sent: "unknown stage".
  const placed = await request<{ id: string; stage_id: string }>(`${stack.baseUrl}/v1/deals`, { token: rest, body: { name: 'By name', pipeline_id: pipeline.id, stage: combining } });
  t.equal(placed.status, 201, `a deal placed by the stage's name written with a combining accent: ${JSON.stringify(placed.body)}`);
  t.equal(placed.body.stage_id, pipeline.stages[0]?.id);
  const reader = await stack.token(W, ['deals:read'], { name: 'Unicode reader' });
  const listed = await request<{ data: { id: string }[] }>(`${stack.baseUrl}/v1/deals?stage=${encodeURIComponent(combining)}`, { token: reader });
  t.equal(listed.status, 200, JSON.stringify(listed.body));
  t.ok(listed.body.data?.some((d) => d.id === placed.body.id), 'the list finds the stage by such a name too');
  const crm = await connectMcp(t, stack.baseUrl, 'crm', reader);
  const found = okResult(t, await callTool(crm, 'find_deals', { pipeline: 'Re\u0301seau', stage: combining })) as unknown as { deals: { id: string }[] };
  t.ok(found.deals.some((d) => d.id === placed.body.id), 'find_deals finds the pipeline and the stage by such names');
});

t.test('an option stored with a combining accent before options were kept in NFC is kept by a list that gives it either way', async (t) => {
  const [composed, combining] = ['Cr\u00e8me', 'Cre\u0300me'];
  const rest = await stack.token(W, ['deals:write'], { name: 'Legacy records' });
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'topping', label: 'Topping', type: 'select', options: ['Plain', 'Jam'] }));
  // As a field written before this change holds it: the option, and a deal's value, with a combining accent.
  await stack.db.query(`update custom_fields set options = $1::jsonb where id = $2`, [JSON.stringify(['Plain', combining]), field.id]);
  const deal = await request(`${stack.baseUrl}/v1/deals`, { token: rest, body: { name: 'Legacy topping', custom_fields: { topping: combining } } });
  t.equal(deal.status, 201, JSON.stringify(deal.body));
  for (const written of [combining, composed]) {
    const kept = okResult(t, await callTool(studio, 'update_custom_field', { id: field.id, options: ['Plain', written, 'Honey'] }));
    t.same(kept.options, ['Plain', composed, 'Honey'], `given as ${written === composed ? 'precomposed' : 'combining'}: not left out`);
  }
  const held = await callTool(studio, 'update_custom_field', { id: field.id, options: ['Plain', 'Honey'] });
  t.match(held.structuredContent, { code: 'conflict', param: 'options' }, 'leaving it out is still refused');
});

t.test('stages added and moved at once keep one order: every active stage at its own position, 0 to n-1', async (t) => {
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Busy', stages: ['A', 'B', 'C'] })) as unknown as Pipeline;
  const added = await Promise.all(Array.from({ length: 6 }, (_, i) => callTool(studio, 'create_stage', { pipeline_id: pipeline.id, name: `New ${i}`, position: 0 })));
  t.equal(added.filter((r) => r.isError).length, 0, 'every add succeeds');
  const positionsOf = async () => {
    const now = okResult(t, await callTool(studio, 'get_pipeline', { id: pipeline.id })) as unknown as Pipeline;
    return now.stages.map((s) => s.position);
  };
  t.same(await positionsOf(), [...Array(9).keys()]);
  const stages = (okResult(t, await callTool(studio, 'get_pipeline', { id: pipeline.id })) as unknown as Pipeline).stages;
  const moved = await Promise.all(stages.map((s, i) => callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: s.id, position: (i * 5) % 9 })));
  t.equal(moved.filter((r) => r.isError).length, 0, 'every move succeeds');
  t.same(await positionsOf(), [...Array(9).keys()], 'no position twice, none skipped');
});

t.test('create_stage with an idempotency_key: a retry answers the first result, other arguments are refused, and a key whose call failed is free', async (t) => {
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Retries', stages: ['Open'] })) as unknown as Pipeline;
  const args = { pipeline_id: pipeline.id, name: 'Review', idempotency_key: 'studio-retry-1' };
  const [first, second] = await Promise.all([callTool(studio, 'create_stage', args), callTool(studio, 'create_stage', args)]);
  t.same(okResult(t, second), okResult(t, first), 'both answered alike');
  t.same((okResult(t, await callTool(studio, 'get_pipeline', { id: pipeline.id })) as unknown as Pipeline).stages.map((s) => s.name), ['Open', 'Review'], 'one stage made');
  const other = await callTool(studio, 'create_stage', { ...args, name: 'Other' });
  t.match(other.structuredContent, { code: 'idempotency_key_reused', hint: /list_pipelines/ });
  const failed = await callTool(studio, 'create_stage', { pipeline_id: pipeline.id, name: 'open', idempotency_key: 'studio-retry-2' });
  t.match(failed.structuredContent, { code: 'conflict', param: 'name' });
  const retried = okResult(t, await callTool(studio, 'create_stage', { pipeline_id: pipeline.id, name: 'Closing', idempotency_key: 'studio-retry-2' })) as unknown as Pipeline;
  t.same(retried.stages.map((s) => s.name), ['Open', 'Review', 'Closing']);
});

t.test('a pipeline or stage name must show: only spaces or invisible characters are refused, as a field label is', async (t) => {
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Onboarding', stages: ['Kickoff', 'Live'] })) as unknown as Pipeline;
  const stageEvents = (await eventsOf('stage')).length;
  const invisible = '\u200b\u200d';
  for (const [tool, args, param] of [
    ['create_pipeline', { name: invisible }, 'name'],
    ['create_pipeline', { name: 'Hidden', stages: ['Start', invisible] }, 'stages.1'],
    ['update_pipeline', { id: pipeline.id, name: invisible }, 'name'],
    ['create_stage', { pipeline_id: pipeline.id, name: invisible }, 'name'],
    ['update_stage', { pipeline_id: pipeline.id, stage_id: pipeline.stages[0]?.id, name: ` ${invisible} ` }, 'name'],
  ] as const) {
    t.match((await callTool(studio, tool, args)).structuredContent, { code: 'validation_failed', param, message: /visible text/ }, `${tool} ${param}`);
  }
  const after = okResult(t, await callTool(studio, 'get_pipeline', { id: pipeline.id })) as unknown as Pipeline;
  t.same(after.stages.map((s) => s.name), ['Kickoff', 'Live'], 'nothing added or renamed');
  t.equal((await eventsOf('stage')).length, stageEvents, 'nor recorded');
  t.match((await callTool(studio, 'create_pipeline', { name: '   ' })).structuredContent, { code: 'validation_failed', param: 'name' }, 'blank is still refused');
});

t.test('a design change refused for what records hold, or for an archived or last stage, says what to send instead', async (t) => {
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['Gold', 'Silver'] }));
  const crm = await stack.token(W, ['contacts:write'], { name: 'Records' });
  t.equal((await request(`${stack.baseUrl}/v1/contacts`, { token: crm, body: { first_name: 'Ada', phone: '+14155550142', custom_fields: { tier: 'Gold' } } })).status, 201);
  const held = await callTool(studio, 'update_custom_field', { id: field.id, options: ['Silver', 'Bronze'] });
  t.match(held.structuredContent, { code: 'conflict', param: 'options', message: /"Gold" \(1 contact\)/, hint: /kept in the list.*list_custom_fields.*update_contact/ });
  // Archived, the field is not in list_custom_fields' default answer, and its values cannot be written until it is restored.
  okResult(t, await callTool(studio, 'archive_custom_field', { id: field.id }));
  const heldArchived = await callTool(studio, 'update_custom_field', { id: field.id, options: ['Silver', 'Bronze'] });
  t.match(heldArchived.structuredContent, { code: 'conflict', param: 'options', hint: /include_archived: true.*archived: false/ }, 'an archived field: where to find its list, and to restore it first');
  okResult(t, await callTool(studio, 'update_custom_field', { id: field.id, archived: false }));

  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Two step', stages: ['First', 'Second'] })) as unknown as Pipeline;
  const [first, second] = pipeline.stages;
  okResult(t, await callTool(studio, 'archive_stage', { pipeline_id: pipeline.id, stage_id: first?.id }));
  for (const [tool, args] of [
    ['update_stage', { pipeline_id: pipeline.id, stage_id: first?.id, name: 'Again' }],
    ['archive_stage', { pipeline_id: pipeline.id, stage_id: second?.id }],
  ] as const) {
    t.match((await callTool(studio, tool, args)).structuredContent, { code: 'conflict', param: 'stage_id', hint: /active stage.*list_pipelines.*create_stage/ }, tool);
  }
});

t.test('is_default: false is refused saying how the default moves, over Studio and REST alike', async (t) => {
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: (Pipeline & { is_default: boolean })[] }).pipelines.find((p) => p.is_default);
  const refused = await callTool(studio, 'update_pipeline', { id: sales?.id, is_default: false });
  t.match(refused.structuredContent, { code: 'validation_failed', param: 'is_default', message: /can only be true.*make another one the default/ });
  const rest = await stack.token(W, ['schema:write'], { name: 'Default switcher' });
  const patched = await request(`${stack.baseUrl}/v1/pipelines/${String(sales?.id)}`, { method: 'PATCH', token: rest, body: { is_default: false } });
  t.match(patched, { status: 400, body: { error: { code: 'validation_failed', param: 'is_default', message: refused.structuredContent?.message } } });
});

t.test('is_default written as the text "true" makes the pipeline the default, as the boolean does', async (t) => {
  // Quoted booleans are read as booleans; is_default takes only true, and "true" was refused with "can only be true".
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Quoted default', stages: ['Open'] })) as unknown as Pipeline;
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: (Pipeline & { is_default: boolean })[] }).pipelines.find((p) => p.is_default);
  t.match(okResult(t, await callTool(studio, 'update_pipeline', { id: pipeline.id, is_default: 'true' })), { id: pipeline.id, is_default: true });
  t.match((await callTool(studio, 'update_pipeline', { id: pipeline.id, is_default: 'false' })).structuredContent, { code: 'validation_failed', param: 'is_default', message: /make another one the default/ }, '"false" is false, refused as false is');
  okResult(t, await callTool(studio, 'update_pipeline', { id: sales?.id, is_default: true }));
});

t.test('an unknown argument is named as it was sent, also on the stage tools that rename the worker\'s `id`', async (t) => {
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: Pipeline[] }).pipelines[0];
  // The stage tools call the pipeline `pipeline_id` where the worker says `id`: that renaming was applied to this refusal too, blaming the argument that was right.
  for (const [tool, args] of [
    ['create_stage', { id: sales?.id, name: 'Anything' }],
    ['update_stage', { pipeline_id: sales?.id, id: sales?.stages[0]?.id, name: 'Anything' }],
    ['archive_stage', { pipeline_id: sales?.id, id: sales?.stages[0]?.id }],
  ] as const) {
    const refused = (await callTool(studio, tool, args)).structuredContent;
    t.match(refused, { code: 'validation_failed', message: /^Unknown parameter `id`/ }, tool);
    // Exactly: a string pattern in t.match is a substring, and "pipeline_id" contains "id".
    t.equal(refused?.param, 'id', `${tool} names id`);
  }
});

t.test('an argument under another name is answered with the one meant: by the kind of id it holds, or by the usual names', async (t) => {
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: Pipeline[] }).pipelines[0];
  const stageId = sales?.stages[0]?.id;
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'renamed_probe', label: 'Probe', type: 'text' }));
  for (const [tool, args, meant] of [
    // An id says which argument it goes in, whatever the model called it.
    ['get_pipeline', { pipeline_id: sales?.id }, 'id'],
    ['update_pipeline', { pipeline_id: sales?.id, name: 'Sales' }, 'id'],
    ['create_stage', { id: sales?.id, name: 'Anything' }, 'pipeline_id'],
    ['create_stage', { pipeline: sales?.id, name: 'Anything' }, 'pipeline_id'],
    ['update_stage', { pipeline_id: sales?.id, id: stageId, name: 'Anything' }, 'stage_id'],
    ['archive_stage', { pipeline_id: sales?.id, id: stageId }, 'stage_id'],
    ['update_custom_field', { field_id: field.id, label: 'Probe' }, 'id'],
    ['archive_custom_field', { custom_field_id: field.id }, 'id'],
    // The names other tools and trackers use.
    ['update_stage', { pipeline_id: sales?.id, stage_id: stageId, order: 2 }, 'position'],
    ['create_stage', { pipeline_id: sales?.id, name: 'Anything', index: 0 }, 'position'],
    ['create_pipeline', { name: 'Anything', stage_names: ['One'] }, 'stages'],
    ['create_custom_field', { object_type: 'deal', key: 'x', label: 'X', field_type: 'text' }, 'type'],
    ['create_custom_field', { object_type: 'deal', key: 'x', label: 'X', type: 'select', choices: ['a'] }, 'options'],
    ['list_custom_fields', { type: 'deal' }, 'object_type'],
    ['list_custom_fields', { archived: true }, 'include_archived'],
    ['update_pipeline', { id: sales?.id, default: true }, 'is_default'],
  ] as const) {
    const refused = (await callTool(studio, tool, args)).structuredContent;
    t.match(refused, { code: 'validation_failed', message: new RegExp(`did you mean \`${meant}\`\\?`) }, `${tool} ${Object.keys(args).join(', ')}`);
  }
  // A kind of id no argument of the tool takes suggests nothing rather than a wrong argument.
  t.notMatch((await callTool(studio, 'get_pipeline', { stage_id: stageId })).structuredContent, { message: /did you mean/ });
});

t.test('an id of another kind where a pipeline, stage or custom field goes says what it is and where the right ids are', async (t) => {
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: Pipeline[] }).pipelines[0];
  const stageId = String(sales?.stages[0]?.id);
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'kind_probe', label: 'Kind probe', type: 'text' }));
  // "No such pipeline: stg_…" and "check the id" left a model retrying the same stage id.
  for (const [tool, args, param, hint] of [
    ['get_pipeline', { id: stageId }, 'id', `${stageId} is a stage id, not a pipeline id \\(pipe_…\\): list_pipelines`],
    ['create_stage', { pipeline_id: stageId, name: 'Anything' }, 'pipeline_id', `${stageId} is a stage id, not a pipeline id`],
    ['update_stage', { pipeline_id: sales?.id, stage_id: sales?.id, name: 'Anything' }, 'stage_id', `${String(sales?.id)} is a pipeline id, not a stage id \\(stg_…\\)`],
    ['update_custom_field', { id: sales?.id, label: 'X' }, 'id', `${String(sales?.id)} is a pipeline id, not a custom field id \\(fld_…\\): .*list_custom_fields`],
    ['archive_custom_field', { id: stageId }, 'id', `${stageId} is a stage id, not a custom field id`],
    ['get_pipeline', { id: field.id }, 'id', `${String(field.id)} is a custom field id, not a pipeline id`],
  ] as const) {
    t.match((await callTool(studio, tool, args)).structuredContent, { code: 'not_found', param, hint: new RegExp(hint) }, `${tool} ${param}`);
  }
  // An id of the right kind that is not there keeps the plain hint.
  t.match((await callTool(studio, 'get_pipeline', { id: 'pipe_nope' })).structuredContent, { code: 'not_found', hint: /^Check the id: list_pipelines/ });
});

t.test("a stage paired with another pipeline's id says which pipeline it is in, on update_stage and archive_stage", async (t) => {
  const first = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Pairing one', stages: ['Intro', 'Demo'] })) as unknown as Pipeline;
  const second = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Pairing two', stages: ['Solo', 'Duo'] })) as unknown as Pipeline;
  const solo = second.stages[0]!;
  for (const [tool, args] of [
    ['update_stage', { pipeline_id: first.id, stage_id: solo.id, name: 'Renamed' }],
    ['archive_stage', { pipeline_id: first.id, stage_id: solo.id }],
  ] as const) {
    const refused = await callTool(studio, tool, args);
    t.match(refused.structuredContent, { code: 'not_found', param: 'stage_id', message: new RegExp(`It is a stage of the pipeline "Pairing two" \\(${second.id}\\): give that pipeline_id with it`) }, tool);
  }
  const unknown = await callTool(studio, 'archive_stage', { pipeline_id: first.id, stage_id: 'stg_doesnotexist' });
  t.notMatch(unknown.structuredContent?.message, /It is a stage of/, 'a stage of no pipeline names none');
  const renamed = okResult(t, await callTool(studio, 'update_stage', { pipeline_id: second.id, stage_id: solo.id, name: 'Renamed' })) as unknown as Pipeline;
  t.equal(renamed.stages[0]?.name, 'Renamed', 'the advice followed renames it');
  const untouched = okResult(t, await callTool(studio, 'get_pipeline', { id: first.id })) as unknown as Pipeline;
  t.same(untouched.stages.map((s) => s.name), ['Intro', 'Demo'], 'the refused calls changed nothing');
});

t.test('a credential that cannot use Studio is told which scopes it takes and which it holds', async (t) => {
  // A REST token for the design (schema:write) is the usual mix-up: "cannot use the server" alone did not say why.
  const restToken = await stack.token(W, ['schema:write'], { name: 'REST design script' });
  const res = await fetch(`${stack.baseUrl}/mcp/studio`, {
    method: 'POST',
    headers: { authorization: `Bearer ${restToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  t.equal(res.status, 403);
  const body = (await res.json()) as { error: string; error_description: string };
  t.match(body, { error: 'insufficient_scope', error_description: /needs one of the scopes studio:read, studio:write and holds only schema:write/ });
  t.match(res.headers.get('www-authenticate'), /error_description="[^"]*studio:read, studio:write[^"]*", scope="studio:read"/);
});

t.test('a blank id is refused as missing, naming the argument and the form of id it takes', async (t) => {
  // "No such pipeline: ." did not say that nothing was sent.
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: Pipeline[] }).pipelines[0];
  for (const [tool, args, param, prefix] of [
    ['get_pipeline', { id: '' }, 'id', 'pipe_'],
    ['update_pipeline', { id: '', name: 'X' }, 'id', 'pipe_'],
    ['create_stage', { pipeline_id: '', name: 'X' }, 'pipeline_id', 'pipe_'],
    ['update_stage', { pipeline_id: sales?.id, stage_id: '', name: 'X' }, 'stage_id', 'stg_'],
    ['archive_stage', { pipeline_id: sales?.id, stage_id: '' }, 'stage_id', 'stg_'],
    ['update_custom_field', { id: '', label: 'X' }, 'id', 'fld_'],
    ['archive_custom_field', { id: '' }, 'id', 'fld_'],
    // Spaces alone are nothing sent too ("No such pipeline:  ." before).
    ['get_pipeline', { id: '   ' }, 'id', 'pipe_'],
  ] as const) {
    t.match((await callTool(studio, tool, args)).structuredContent, { code: 'validation_failed', param, message: new RegExp(`is required: an id such as ${prefix}`) }, tool);
  }
});

t.test('a signed-in member whose role does not allow studio:write is sent to an administrator, not to "Allow changes" they would never be offered', async (t) => {
  await stack.addMember(W, 'viewer@studio.test', ['deals.read'], 'all');
  const url = new URL(`${stack.baseUrl}/mcp/studio`);
  const agent = new TestAgent('Viewer design agent');
  const connect = async () => {
    const client = new Client({ name: 'viewer-design-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: agent }));
    t.teardown(() => client.close());
    return client;
  };
  await t.rejects(connect(), { message: /Unauthorized/ });
  const { code } = await authorizeWithForms({ url: agent.authorizationUrl!.href, baseUrl: stack.baseUrl, clientId: '', redirectUri: '', server: 'studio', challenge: '', email: 'viewer@studio.test', password: TEST_PASSWORD });
  await new StreamableHTTPClientTransport(url, { authProvider: agent }).finishAuth(code);
  const viewer = await connect();
  const refused = await callTool(viewer, 'create_pipeline', { name: 'Not mine to make' });
  t.match(refused.structuredContent, { code: 'missing_scope', required_scope: 'studio:write', message: /role in this workspace does not allow studio:write.*administrator/, hint: /administrator/ });
  t.notMatch(refused.structuredContent?.hint, /Allow changes/, 'no consent they could give');
  t.notMatch(refused.structuredContent?.message, /tick "Allow changes"/);
  t.notOk((okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: { name: string }[] }).pipelines.some((p) => p.name === 'Not mine to make'), 'nothing created');
});

t.test('a refused argument is answered with what it takes, from its description', async (t) => {
  const sales = (okResult(t, await callTool(studio, 'list_pipelines')) as unknown as { pipelines: Pipeline[] }).pipelines[0];
  // "expected number, received string" alone did not say how to say "last".
  t.match((await callTool(studio, 'update_stage', { pipeline_id: sales?.id, stage_id: sales?.stages[0]?.id, position: 'last' })).structuredContent, {
    code: 'validation_failed',
    param: 'position',
    hint: /^Correct `position` and call again\. position: .*0 is first; a position beyond the last means last/,
  });
  t.match((await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'Lead Source', label: 'Lead source', type: 'text' })).structuredContent, {
    param: 'key',
    hint: /key: .*lower snake case/,
  });
  t.match((await callTool(studio, 'create_pipeline', { name: 'Hinted', stages: [{ name: 'One' }] })).structuredContent, { param: 'stages.0', hint: /stages: Stage names in order/ }, 'an item of a list: the list described');
});

t.test('a tool that creates reads an optional argument sent null as not given; one that changes refuses it', async (t) => {
  // Small models fill every optional field: "expected number, received null" for create_stage's position refused a plain "add it last".
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Nulls', stages: null, is_default: null, idempotency_key: null })) as unknown as Pipeline & { is_default: boolean };
  t.same(pipeline.stages.map((s) => s.name), ['Lead', 'Qualified', 'Negotiation', 'Won', 'Lost'], 'the default stages');
  t.equal(pipeline.is_default, false);
  const added = okResult(t, await callTool(studio, 'create_stage', { pipeline_id: pipeline.id, name: 'Churned', position: null })) as unknown as Pipeline;
  t.equal(added.stages.find((s) => s.name === 'Churned')?.position, 5, 'last');
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'deal', key: 'null_probe', label: 'Null probe', type: 'text', options: null, required: null }));
  t.match(field, { options: null, required: false });
  // Changing what exists: a null may be a mistaken attempt to clear the name, and is refused.
  t.match((await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: added.stages[0]?.id, name: null })).structuredContent, {
    code: 'validation_failed',
    param: 'name',
    hint: /^`name` cannot be cleared: leave it out to keep its current value, or give a new one\. name: The new name/,
  });
  t.match((await callTool(studio, 'create_stage', { pipeline_id: pipeline.id, name: null })).structuredContent, { code: 'validation_failed', param: 'name' }, 'a required argument is still required');
});

t.test('a stage write names the stage it wrote, beside the whole pipeline, through Studio and REST alike', async (t) => {
  // The pipeline alone left a small model to find the new or moved stage among the others by name.
  type Written = Pipeline & { name: string; stage: { object: string; id: string; name: string; position: number | null; archived: boolean } };
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Named stages', stages: ['Intro', 'Pilot', 'Signed'] })) as unknown as Pipeline;
  const created = okResult(t, await callTool(studio, 'create_stage', { pipeline_id: pipeline.id, name: 'Demo', position: 1 })) as unknown as Written;
  t.match(created.stage, { object: 'stage', id: /^stg_/, name: 'Demo', position: 1, archived: false }, 'create_stage: the stage added');
  t.equal(created.name, 'Named stages', 'the pipeline is still the result');
  t.same(created.stages.map((s) => s.name), ['Intro', 'Demo', 'Pilot', 'Signed']);
  t.same(created.stages[1], created.stage, 'the same stage as among the stages');

  const moved = okResult(t, await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: created.stage.id, name: 'Live demo', position: 3 })) as unknown as Written;
  t.match(moved.stage, { id: created.stage.id, name: 'Live demo', position: 3 }, 'update_stage: the stage changed, where it is now');
  t.same(moved.stages.map((s) => s.name), ['Intro', 'Pilot', 'Signed', 'Live demo']);

  const archived = okResult(t, await callTool(studio, 'archive_stage', { pipeline_id: pipeline.id, stage_id: created.stage.id })) as unknown as Written;
  t.match(archived.stage, { id: created.stage.id, name: 'Live demo', position: null, archived: true }, 'archive_stage: the stage archived');

  const rest = await stack.token(W, ['schema:write'], { name: 'Stage script' });
  const posted = await request<Written>(`${stack.baseUrl}/v1/pipelines/${pipeline.id}/stages`, { token: rest, body: { name: 'Review' } });
  t.match(posted, { status: 201, body: { object: 'pipeline', id: pipeline.id, stage: { name: 'Review', position: 3 } } }, 'REST POST: the pipeline, and the stage added');
  const patched = await request<Written>(`${stack.baseUrl}/v1/pipelines/${pipeline.id}/stages/${posted.body.stage.id}`, { method: 'PATCH', token: rest, body: { position: 0 } });
  t.match(patched, { status: 200, body: { object: 'pipeline', stage: { id: posted.body.stage.id, position: 0 } } }, 'REST PATCH: the stage moved');
  const deleted = await request<Written>(`${stack.baseUrl}/v1/pipelines/${pipeline.id}/stages/${posted.body.stage.id}`, { method: 'DELETE', token: rest });
  t.match(deleted, { status: 200, body: { object: 'pipeline', stage: { id: posted.body.stage.id, archived: true } } }, 'REST DELETE: the stage archived');
});
