import t from 'tap';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { ErrorBody, Pipeline } from '../helpers/api-types.js';
import type { CustomField } from '../../shared/contracts/custom-fields.js';

/**
 * "Closed \u200bWon" (a zero-width space), "Closed\u2060Won" (a word joiner) or a soft hyphen
 * were stored beside "Closed Won" and looked the same in every list, and U+FEFF inside a name
 * was folded to a space. Pipeline and stage names, custom field labels and select options now
 * refuse a character that shows as nothing (400 naming the field and the code point, nothing
 * stored), and keep the joiners and selectors Persian, Indic scripts and emoji need.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Invisible Ink Ltd', workspace: 'Invisible Ink', email: 'owner@invisible-ink.test' });
const W = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(W, ['deals:write', 'schema:write']));
const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write'], { name: 'Invisible ink agent' }));

const countOf = async (table: string) => Number((await stack.db.query<{ n: string }>(`select count(*) as n from ${table} where workspace_id = $1`, [W]))[0]?.n);
const counts = async () => [await countOf('pipelines'), await countOf('stages'), await countOf('custom_fields')];

t.test('REST: a name, label or option holding a character that shows as nothing is a 400 naming the field and the code point', async (t) => {
  const pipeline = (await api.post<Pipeline>('/v1/pipelines', { name: 'Ink deals', stages: ['Closed Won'] })).body;
  const field = (await api.post<CustomField>('/v1/custom-fields', { object_type: 'deal', key: 'ink_tier', label: 'Tier', type: 'select', options: ['Gold'] })).body;
  const before = await counts();
  for (const [method, path, body, param, code] of [
    ['POST', '/v1/pipelines', { name: 'Closed \u200bWon' }, 'name', 'U+200B'],
    ['POST', '/v1/pipelines', { name: 'Ink book', stages: ['Lead', 'Closed\u2060Won'] }, 'stages.1', 'U+2060'],
    ['POST', `/v1/pipelines/${pipeline.id}/stages`, { name: 'Clo\u00adsed Won' }, 'name', 'U+00AD'],
    ['PATCH', `/v1/pipelines/${pipeline.id}/stages/${pipeline.stages[0]?.id}`, { name: 'Closed\ufeffWon' }, 'name', 'U+FEFF'],
    ['PATCH', `/v1/pipelines/${pipeline.id}`, { name: 'Ink\u{E0041}deals' }, 'name', 'U+E0041'],
    ['POST', `/v1/pipelines/${pipeline.id}/stages`, { name: 'Closed \u200dWon' }, 'name', 'U+200D'],
    ['POST', '/v1/custom-fields', { object_type: 'deal', key: 'ink_size', label: 'Deal\u2060size', type: 'number' }, 'label', 'U+2060'],
    ['PATCH', `/v1/custom-fields/${field.id}`, { label: 'Ti\u00ader' }, 'label', 'U+00AD'],
    ['POST', '/v1/custom-fields', { object_type: 'deal', key: 'ink_level', label: 'Level', type: 'select', options: ['Gold', 'Go\u200bld'] }, 'options.1', 'U+200B'],
    ['PATCH', `/v1/custom-fields/${field.id}`, { options: ['Gold', '\u3164Silver'] }, 'options.1', 'U+3164'],
  ] as const) {
    const res = await api.send<ErrorBody>(method, path, { body });
    t.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
    t.equal(res.body.error.param, param);
    t.match(res.body.error.message, new RegExp(`^${param.replace('.', '\\.')}: must not contain ${code.replace('+', '\\+')}`));
  }
  t.same(await counts(), before, 'nothing was stored');
  const stored = (await api.get<Pipeline>(`/v1/pipelines/${pipeline.id}`)).body;
  t.same([stored.name, stored.stages.map((s) => s.name)], ['Ink deals', ['Closed Won']], 'nothing was renamed');
  t.same((await api.get<CustomField>(`/v1/custom-fields/${field.id}`)).body, field, 'the field is as it was');
});

t.test('REST: the joiners and selectors scripts and emoji need are kept where they do something', async (t) => {
  const created = await api.post<Pipeline>('/v1/pipelines', {
    name: '\ufeffمی\u200cخواهم',
    stages: ['क्\u200dष', '❤\ufe0f\u200d🔥 Hot', '👩🏽\u200d💻 Dev', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland', '#\ufe0f\u20e3 First'],
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.equal(created.body.name, 'می\u200cخواهم', 'a byte order mark at the start is trimmed, as before');
  t.same(
    created.body.stages.map((s) => s.name),
    ['क्\u200dष', '❤\ufe0f\u200d🔥 Hot', '👩🏽\u200d💻 Dev', '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland', '#\ufe0f\u20e3 First'],
  );
  const field = await api.post<CustomField>('/v1/custom-fields', { object_type: 'deal', key: 'ink_mood', label: 'Mood \u2764\ufe0f', type: 'select', options: ['\u2764\ufe0f', 'Sh\u200coh'] });
  t.equal(field.status, 201, JSON.stringify(field.body));
});

t.test('Studio: the tools refuse it too, naming the argument and the code point', async (t) => {
  const pipeline = okResult(t, await callTool(studio, 'create_pipeline', { name: 'Ink partners', stages: ['Intro'] })) as unknown as Pipeline;
  const before = await counts();
  for (const [tool, args, param, code] of [
    ['create_pipeline', { name: 'Ink\u2060partners' }, 'name', 'U+2060'],
    ['create_stage', { pipeline_id: pipeline.id, name: 'Closed \u200bWon' }, 'name', 'U+200B'],
    ['update_stage', { pipeline_id: pipeline.id, stage_id: pipeline.stages[0]?.id, name: 'In\u00adtro' }, 'name', 'U+00AD'],
    ['create_custom_field', { object_type: 'contact', key: 'ink_region', label: 'Region', type: 'select', options: ['North', 'No\ufeffrth'] }, 'options.1', 'U+FEFF'],
  ] as const) {
    const r = await callTool(studio, tool, args);
    t.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
    t.match(r.structuredContent, { code: 'validation_failed', param, message: new RegExp(`must not contain ${code.replace('+', '\\+')}`) }, tool);
  }
  t.same(await counts(), before, 'nothing was stored');
});
