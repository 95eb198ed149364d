import t from 'tap';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Deal, ErrorBody } from '../helpers/api-types.js';
import type { CustomField } from '../../shared/contracts/custom-fields.js';

/**
 * "Gold  tier" (two spaces) sat beside "Gold tier" as a second option, and a record value
 * "gold  tier" did not name the option "Gold tier". Options are now single-spaced when defined,
 * unique with case and extra spaces ignored, and a value names its option the same way, stored as
 * the option is written; an option stored double-spaced before can be respelt without its records
 * being rewritten, for their values still name it.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Option Spacing Ltd', workspace: 'Option Spacing', email: 'owner@option-spacing.test' });
const W = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(W, ['deals:write', 'schema:write']));
const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write'], { name: 'Option spacing agent' }));
const crm = await connectMcp(t, stack.baseUrl, 'crm', await stack.token(W, ['deals:write'], { name: 'Option spacing writer' }));

const fieldCount = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from custom_fields where workspace_id = $1', [W]))[0]?.n);
const storedValue = async (dealId: string, key: string) =>
  (await stack.db.query<{ value: string | null }>('select custom_fields ->> $2 as value from deals where id = $1', [dealId, key]))[0]?.value;

t.test('REST: options are stored single-spaced, and two that differ only in case or spacing are a 400', async (t) => {
  const created = await api.post<CustomField>('/v1/custom-fields', { object_type: 'deal', key: 'spaced_tier', label: 'Tier', type: 'select', options: ['Gold  tier', ' Silver\u00a0tier '] });
  t.equal(created.status, 201, JSON.stringify(created.body));
  t.same(created.body.options, ['Gold tier', 'Silver tier']);
  const fields = await fieldCount();

  const twice = await api.post<ErrorBody>('/v1/custom-fields', { object_type: 'deal', key: 'spaced_level', label: 'Level', type: 'select', options: ['Gold tier', 'gold  TIER'] });
  t.equal(twice.status, 400);
  t.match(twice.body.error, { param: 'options', message: 'options: options must be unique (case and extra spaces ignored): "Gold tier" and "gold TIER" are the same name' });
  const same = await api.send<ErrorBody>('PATCH', `/v1/custom-fields/${created.body.id}`, { body: { options: ['Gold tier', 'Silver tier', 'Gold\u3000 tier'] } });
  t.equal(same.status, 400);
  t.match(same.body.error, { param: 'options', message: /"Gold tier" is given twice/ });
  t.equal(await fieldCount(), fields, 'no field added');
  t.same((await api.get<CustomField>(`/v1/custom-fields/${created.body.id}`)).body.options, ['Gold tier', 'Silver tier'], 'the options are as they were');
});

t.test('REST and the tools: a value names its option with case and extra spaces ignored, and is stored as the option is written', async (t) => {
  const deal = await api.post<Deal>('/v1/deals', { name: 'Spaced value', custom_fields: { spaced_tier: ' gold  TIER' } });
  t.equal(deal.status, 201, JSON.stringify(deal.body));
  t.equal(deal.body.custom_fields.spaced_tier, 'Gold tier');
  const updated = await api.send<Deal>('PATCH', `/v1/deals/${deal.body.id}`, { body: { custom_fields: { spaced_tier: 'silver\u00a0\u00a0tier' } } });
  t.equal(updated.status, 200, JSON.stringify(updated.body));
  t.equal(updated.body.custom_fields.spaced_tier, 'Silver tier');
  const byTool = okResult(t, await callTool(crm, 'update_deal', { id: deal.body.id, custom_fields: { spaced_tier: 'GOLD   tier' } }));
  t.match(byTool, { custom_fields: { spaced_tier: 'Gold tier' } }, 'update_deal');
  t.equal(await storedValue(deal.body.id, 'spaced_tier'), 'Gold tier');
  const other = await api.post<ErrorBody>('/v1/deals', { name: 'Not an option', custom_fields: { spaced_tier: 'Goldtier' } });
  t.equal(other.status, 400, 'spacing inside a word is another value');
  t.equal(other.body.error.param, 'custom_fields.spaced_tier');
});

t.test('an option stored double-spaced before: values name it, and it can be respelt single-spaced while records hold it', async (t) => {
  const field = (await api.post<CustomField>('/v1/custom-fields', { object_type: 'deal', key: 'legacy_plan', label: 'Plan', type: 'select', options: ['Pro plan', 'Basic'] })).body;
  // As a write stored it before options were single-spaced.
  await stack.db.query(`update custom_fields set options = '["Pro  plan", "Basic"]'::jsonb where id = $1`, [field.id]);
  const held = (await api.post<Deal>('/v1/deals', { name: 'Legacy plan', custom_fields: { legacy_plan: 'pro plan' } })).body;
  t.equal(held.custom_fields.legacy_plan, 'Pro  plan', "stored as the option is written, the option's own spelling");

  const respelt = await api.send<CustomField>('PATCH', `/v1/custom-fields/${field.id}`, { body: { options: ['Pro  plan', 'Basic', 'Team'] } });
  t.equal(respelt.status, 200, JSON.stringify(respelt.body));
  t.same(respelt.body.options, ['Pro plan', 'Basic', 'Team'], 'the held option, sent back as read, is kept single-spaced');
  t.equal(await storedValue(held.id, 'legacy_plan'), 'Pro  plan', 'the record is not rewritten');
  const rewritten = await api.send<Deal>('PATCH', `/v1/deals/${held.id}`, { body: { custom_fields: { legacy_plan: 'Pro  plan' } } });
  t.equal(rewritten.status, 200, 'its value still names the option');
  t.equal(rewritten.body.custom_fields.legacy_plan, 'Pro plan');
  await stack.db.query(`update deals set custom_fields = custom_fields || '{"legacy_plan": "Pro  plan"}'::jsonb where id = $1`, [held.id]);

  const removed = await api.send<ErrorBody>('PATCH', `/v1/custom-fields/${field.id}`, { body: { options: ['Basic', 'Team'] } });
  t.equal(removed.status, 409, 'leaving the option out is still refused while a record holds it, in either spelling');
  t.match(removed.body.error, { param: 'options', message: /leaves out "Pro plan" \(1 deal\) still held by records/ });
  t.same((await api.get<CustomField>(`/v1/custom-fields/${field.id}`)).body.options, ['Pro plan', 'Basic', 'Team'], 'unchanged');
});

t.test('Studio: create_custom_field and update_custom_field single-space options and refuse a repeat', async (t) => {
  const field = okResult(t, await callTool(studio, 'create_custom_field', { object_type: 'contact', key: 'spaced_source', label: 'Source', type: 'select', options: ['Trade  show', 'Web'] }));
  t.same(field.options, ['Trade show', 'Web']);
  const fields = await fieldCount();
  const repeat = await callTool(studio, 'create_custom_field', { object_type: 'contact', key: 'spaced_channel', label: 'Channel', type: 'select', options: ['Trade show', 'trade\u00a0 show'] });
  t.equal(repeat.isError, true);
  t.match(repeat.structuredContent, { code: 'validation_failed', param: 'options', message: /must be unique \(case and extra spaces ignored\)/ });
  const update = await callTool(studio, 'update_custom_field', { id: field.id, options: ['Trade show', 'Web', 'TRADE SHOW '] });
  t.equal(update.isError, true, 'update_custom_field');
  t.match(update.structuredContent, { code: 'validation_failed', param: 'options' });
  t.equal(await fieldCount(), fields, 'no field added');
});
