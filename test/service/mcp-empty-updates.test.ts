import t from 'tap';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { useStack } from '../helpers/shared-stack.js';
import { storedEvents } from '../helpers/stored-events.js';

/**
 * An update tool given only what names its record (update_contact with only its id) used to
 * answer the record unchanged as a success, which a small model that forgot the fields
 * reported to the user as done. It is refused, naming what the tool changes, and changes nothing.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Empty Inc', workspace: 'Empty', email: 'boss@empty.test' });
const W = ws.workspace.id;
const crm = await connectMcp(t, stack.baseUrl, 'crm', await stack.token(W, ['contacts:write', 'deals:write', 'schema:read']));
const studio = await connectMcp(t, stack.baseUrl, 'studio', await stack.token(W, ['studio:write']));

/** A record made for the test (no assertion out here: the file's top level has no test to count it). */
const made = async (client: typeof crm, tool: string, args: Record<string, unknown>) => (await callTool(client, tool, args)).structuredContent as { id: string; stages: { id: string }[] };
const contact = await made(crm, 'create_contact', { first_name: 'Ada', phone: '+14155550101' });
const deal = await made(crm, 'create_deal', { name: 'Engines' });
const field = await made(studio, 'create_custom_field', { object_type: 'deal', key: 'source', label: 'Source', type: 'text' });
const pipeline = await made(studio, 'create_pipeline', { name: 'Partners', stages: ['Intro', 'Pilot'] });

t.test('an update with nothing to change is a tool error naming what it can change, and changes nothing', async (t) => {
  const events = (await storedEvents(stack.db, W)).length;
  for (const [client, tool, args, changeable] of [
    [crm, 'update_contact', { id: contact.id }, /first_name.*phone.*owner_id/],
    [crm, 'update_deal', { id: deal.id }, /name.*stage.*amount.*closed_at/],
    // An empty custom_fields merges nothing.
    [crm, 'update_contact', { id: contact.id, custom_fields: {} }, /first_name.*phone.*owner_id/],
    [crm, 'update_deal', { id: deal.id, custom_fields: {} }, /name.*stage.*amount.*closed_at/],
    [studio, 'update_custom_field', { id: field.id }, /label.*options.*required.*archived/],
    [studio, 'update_pipeline', { id: pipeline.id }, /name.*is_default/],
    [studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: pipeline.stages[1]?.id }, /name.*position/],
  ] as const) {
    const refused = await callTool(client, tool, args);
    t.equal(refused.isError, true, `${tool} refuses`);
    t.match(refused.structuredContent, { code: 'validation_failed', message: new RegExp(`${tool} would change nothing: besides .* it was given no field to change.*Give at least one of: `), hint: /nothing was changed/ }, tool);
    t.match(refused.structuredContent?.message, changeable, `${tool} names what it changes`);
    const offered = String(refused.structuredContent?.message).replace(/.*Give at least one of: /, '').replace(/\.$/, '').split(', ');
    t.same(offered.filter((k) => Object.hasOwn(args, k) && k !== 'custom_fields'), [], `${tool} does not offer what names the record as a change`);
  }
  t.equal((await storedEvents(stack.db, W)).length, events, 'nothing recorded');

  // A field given is a change, null too (it clears): those still go through.
  t.match(okResult(t, await callTool(crm, 'update_contact', { id: contact.id, last_name: 'Lovelace' })), { last_name: 'Lovelace' });
  t.match(okResult(t, await callTool(crm, 'update_deal', { id: deal.id, owner_id: null })), { owner_id: null });
  // custom_fields with a value in it is a change, a null (which clears) too.
  t.match(okResult(t, await callTool(crm, 'update_deal', { id: deal.id, custom_fields: { source: 'Fair' } })), { custom_fields: { source: 'Fair' } });
  t.match(okResult(t, await callTool(crm, 'update_deal', { id: deal.id, custom_fields: { source: null } })), { custom_fields: { source: null } });
  t.match(okResult(t, await callTool(studio, 'update_stage', { pipeline_id: pipeline.id, stage_id: pipeline.stages[1]?.id, position: 0 })), { stage: { position: 0 } });
});
