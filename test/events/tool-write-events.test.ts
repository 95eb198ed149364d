import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import t, { type Test } from 'tap';
import type { Actor, Event } from '../../shared/contracts/events.js';
import { client } from '../helpers/http.js';
import { callTool, connectMcp, okResult, type ToolResult } from '../helpers/mcp-client.js';
import { signInAgent, TestAgent } from '../helpers/mcp-oauth-agent.js';
import { FormBrowser } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';
import { storedEvents as storedEventsOf } from '../helpers/stored-events.js';

/**
 * Writes through the MCP tool servers store exactly one event each, naming who made them:
 * an agent signed in over OAuth (its grant, its client's name and the user it acts for) or
 * an API token, with the request id of the tool call. Refused tool calls store none.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const W = ws.workspace.id;
const user = { id: ws.user.id, email: ws.user.email };
const reader = client(stack.baseUrl, await stack.token(W, ['contacts:read', 'deals:read', 'schema:read', 'events:read'], { name: 'events reader' }));
const eventsOf = async (objectId: string) => (await reader.get<{ data: Event[] }>(`/v1/events?limit=100&object_id=${objectId}`)).body.data;
/** Every event of the workspace, whatever its kind: what the feed of one token may not show. */
const storedEvents = async () => (await storedEventsOf(stack.db, W)).length;

type Server = 'crm' | 'studio';

/** The MCP SDK's client, noting the Request-Id the gateway answered each tools/call with. */
interface Connection {
  client: Client;
  requestIds: string[];
}

async function connect(server: Server, bearer: string): Promise<Connection> {
  const requestIds: string[] = [];
  const recording: FetchLike = async (url, init) => {
    const res = await fetch(url, init);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: unknown }) : {};
    if (body.method === 'tools/call') requestIds.push(res.headers.get('request-id') ?? 'none');
    return res;
  };
  return { client: await connectMcp(t, stack.baseUrl, server, bearer, { fetch: recording }), requestIds };
}

/** A tool call that must succeed: its result and the id of its request. */
async function write(t: Test, conn: Connection, name: string, args: Record<string, unknown>): Promise<{ result: Record<string, unknown>; requestId: string }> {
  const result = okResult(t, await callTool(conn.client, name, args));
  const requestId = conn.requestIds.at(-1) ?? '';
  t.match(requestId, /^req_/, `${name}: the gateway named its request`);
  return { result, requestId };
}

/**
 * The member signs in an agent through the SDK's auth() and the real forms, twice: a first
 * grant reads only, and authorizing again offers "Allow changes".
 */
async function signIn(server: Server, name: string): Promise<{ accessToken: string; grantId: string }> {
  const agent = new TestAgent(name);
  const browser = new FormBrowser();
  for (const allowChanges of [false, true]) {
    agent.forgetTokens();
    await signInAgent(agent, { baseUrl: stack.baseUrl, server, email: user.email, password: TEST_PASSWORD, allowChanges, browser });
  }
  const grants = await stack.db.query<{ id: string }>('select id from oauth_grants where client_id = $1 and allows_changes', [agent.clientInformation()?.client_id]);
  if (grants.length !== 1 || !grants[0]) throw new Error(`expected one grant that allows changes, found ${grants.length}`);
  return { accessToken: agent.tokens()?.access_token ?? '', grantId: grants[0].id };
}

const crmAgent = await signIn('crm', 'Events CRM Agent');
const studioAgent = await signIn('studio', 'Events Studio Agent');
const crmAgentActor: Actor = { kind: 'oauth_agent', id: crmAgent.grantId, name: 'Events CRM Agent', user };
const studioAgentActor: Actor = { kind: 'oauth_agent', id: studioAgent.grantId, name: 'Events Studio Agent', user };
const tokenName = 'tool writer token';
const token = await stack.token(W, ['contacts:write', 'deals:write', 'studio:write'], { name: tokenName });
const tokenId = (await stack.db.query<{ id: string }>('select id from api_tokens where workspace_id = $1 and name = $2', [W, tokenName]))[0]?.id;
const tokenActor: Actor = { kind: 'api_token', id: tokenId ?? 'missing', name: tokenName, user: null };

t.test('an OAuth agent on the CRM server: contact.created, contact.updated, deal.created, deal.stage_changed', async (t) => {
  const crm = await connect('crm', crmAgent.accessToken);
  const before = await storedEvents();
  const created = await write(t, crm, 'create_contact', { first_name: 'Grace', phone: '+1 415 555 0700' });
  const contactId = String(created.result.id);
  const updated = await write(t, crm, 'update_contact', { id: contactId, first_name: 'Grace H.', email: 'grace@tool-events.test' });
  const deal = await write(t, crm, 'create_deal', { name: 'Grace deal', contact_id: contactId });
  const dealId = String(deal.result.id);
  const moved = await write(t, crm, 'update_deal', { id: dealId, stage: 'Qualified' });
  t.equal(moved.result.stage_name, 'Qualified');

  const contactEvents = await eventsOf(contactId);
  t.same(contactEvents.map((e) => e.type), ['contact.updated', 'contact.created'], 'one event per write, newest first');
  const [contactUpdated, contactCreated] = contactEvents;
  t.same(contactCreated?.actor, crmAgentActor, 'the agent, its client name and its user');
  t.equal(contactCreated?.request_id, created.requestId);
  t.equal(contactCreated?.data.previous_attributes, null);
  t.same(contactUpdated?.actor, crmAgentActor);
  t.equal(contactUpdated?.request_id, updated.requestId);
  t.same(contactUpdated?.data.previous_attributes, { first_name: 'Grace', email: null }, 'the old values of what changed');
  t.match(contactUpdated?.data.object, { first_name: 'Grace H.', email: 'grace@tool-events.test' });

  const dealEvents = await eventsOf(dealId);
  t.same(dealEvents.map((e) => e.type), ['deal.stage_changed', 'deal.created']);
  const [dealMoved, dealCreated] = dealEvents;
  t.same(dealCreated?.actor, crmAgentActor);
  t.equal(dealCreated?.request_id, deal.requestId);
  t.same(dealMoved?.actor, crmAgentActor);
  t.equal(dealMoved?.request_id, moved.requestId);
  t.same(dealMoved?.data.previous_attributes, { stage_id: deal.result.stage_id });
  t.equal(dealMoved?.data.object.stage_id, moved.result.stage_id);
  t.equal(await storedEvents(), (before ?? 0) + 4, 'four writes, four events in all');
});

t.test("an agent's client renamed since (a metadata document refreshed): later events carry the new name", async (t) => {
  const crm = await connect('crm', crmAgent.accessToken);
  await write(t, crm, 'create_contact', { first_name: 'Named', phone: '+1 415 555 0702' });
  await stack.db.query('update oauth_clients set client_name = $1 where id = (select client_id from oauth_grants where id = $2)', ['Events CRM Agent v2', crmAgent.grantId]);
  t.teardown(() => stack.db.query('update oauth_clients set client_name = $1 where id = (select client_id from oauth_grants where id = $2)', ['Events CRM Agent', crmAgent.grantId]));
  const renamed = await write(t, crm, 'create_contact', { first_name: 'Renamed', phone: '+1 415 555 0703' });
  const [created] = await eventsOf(String(renamed.result.id));
  t.same(created?.actor, { ...crmAgentActor, name: 'Events CRM Agent v2' }, 'the name the client has now, not one remembered by the worker');
});

t.test('an OAuth agent on the Studio server: custom_field.created, pipeline.created, stage.created', async (t) => {
  const studio = await connect('studio', studioAgent.accessToken);
  const before = await storedEvents();
  const field = await write(t, studio, 'create_custom_field', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'text' });
  const pipeline = await write(t, studio, 'create_pipeline', { name: 'Hiring', stages: ['Applied', 'Hired'] });
  const pipelineId = String(pipeline.result.id);
  const staged = await write(t, studio, 'create_stage', { pipeline_id: pipelineId, name: 'Interview', position: 1 });
  const stage = (staged.result.stages as { id: string; name: string }[]).find((s) => s.name === 'Interview');

  for (const [objectId, type, requestId] of [
    [String(field.result.id), 'custom_field.created', field.requestId],
    [pipelineId, 'pipeline.created', pipeline.requestId],
    [stage?.id ?? 'missing', 'stage.created', staged.requestId],
  ] as const) {
    const events = await eventsOf(objectId);
    t.same(events.map((e) => e.type), [type], `${type}: one event`);
    t.same(events[0]?.actor, studioAgentActor, `${type}: the Studio agent and its user`);
    t.equal(events[0]?.request_id, requestId, `${type}: the tool call's request`);
  }
  t.equal(await storedEvents(), (before ?? 0) + 3, 'three writes, three events in all');
});

t.test('with an API token: the token is the actor', async (t) => {
  t.match(tokenId, /^tok_/);
  const crm = await connect('crm', token);
  const studio = await connect('studio', token);
  const before = await storedEvents();
  const created = await write(t, crm, 'create_contact', { first_name: 'Tokyo', phone: '+1 415 555 0701' });
  const deal = await write(t, crm, 'create_deal', { name: 'Token deal' });
  const moved = await write(t, crm, 'update_deal', { id: deal.result.id, stage: 'Negotiation' });
  const field = await write(t, studio, 'create_custom_field', { object_type: 'deal', key: 'source', label: 'Source', type: 'text' });

  const [contactCreated, ...moreContact] = await eventsOf(String(created.result.id));
  t.same(moreContact, []);
  t.match(contactCreated, { type: 'contact.created', request_id: created.requestId });
  t.same(contactCreated?.actor, tokenActor, "the token's id and name, no user");
  const dealEvents = await eventsOf(String(deal.result.id));
  t.same(dealEvents.map((e) => [e.type, e.request_id]), [['deal.stage_changed', moved.requestId], ['deal.created', deal.requestId]]);
  t.same(dealEvents.map((e) => e.actor), [tokenActor, tokenActor]);
  const fieldEvents = await eventsOf(String(field.result.id));
  t.same(fieldEvents.map((e) => [e.type, e.request_id]), [['custom_field.created', field.requestId]]);
  t.same(fieldEvents[0]?.actor, tokenActor);
  t.equal(await storedEvents(), (before ?? 0) + 4);
});

t.test('refused tool calls store no event', async (t) => {
  const agentCrm = await connect('crm', crmAgent.accessToken);
  const agentStudio = await connect('studio', studioAgent.accessToken);
  const tokenCrm = await connect('crm', token);
  const deal = await write(t, agentCrm, 'create_deal', { name: 'Stays put' });
  const pipeline = await write(t, agentStudio, 'create_pipeline', { name: 'Refusals', stages: ['One', 'Two'] });
  const before = await storedEvents();
  const refusals: [Connection, string, Record<string, unknown>, string][] = [
    [agentCrm, 'create_contact', { first_name: 'Bad', phone: 'not a phone' }, 'validation_failed'],
    [agentCrm, 'create_contact', { first_name: 'Again', phone: '+1 415 555 0700' }, 'phone_taken'],
    [agentCrm, 'update_contact', { id: 'con_nope', first_name: 'Nobody' }, 'not_found'],
    [agentCrm, 'update_deal', { id: deal.result.id, stage: 'No Such Stage' }, 'validation_failed'],
    [tokenCrm, 'create_contact', { first_name: 'Bad', phone: '12' }, 'validation_failed'],
    [tokenCrm, 'update_deal', { id: deal.result.id, stage_id: 'stg_nope' }, 'not_found'],
    [agentStudio, 'create_custom_field', { object_type: 'contact', key: 'tier', label: 'Tier again', type: 'text' }, 'conflict'],
    [agentStudio, 'create_stage', { pipeline_id: pipeline.result.id, name: 'One' }, 'conflict'],
  ];
  for (const [conn, name, args, code] of refusals) {
    const result: ToolResult = await callTool(conn.client, name, args);
    t.match(result, { isError: true, structuredContent: { code } }, `${name} ${JSON.stringify(args)} is refused: ${code}`);
  }
  t.equal(await storedEvents(), before, 'no event stored');
  t.same((await eventsOf(String(deal.result.id))).map((e) => e.type), ['deal.created'], 'the deal did not move');
});
