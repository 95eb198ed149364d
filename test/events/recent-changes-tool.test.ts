import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import { client as restClient } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/** `recent_changes` on the CRM tool server, through the MCP SDK's own client: what changed, and by whom. */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const W = ws.workspace.id;

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: 'recent-changes-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/crm`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  t.teardown(() => client.close());
  return client;
}
type Result = { isError?: boolean; structuredContent?: { changes: { id: string; type: string; by: { kind: string; name: string; id: string | null }; object_id: string; record: Record<string, unknown>; changed: Record<string, { from: unknown; to: unknown }> | null }[]; has_more: boolean; next_cursor: string | null }; content?: { text?: string }[] };

const writer = await stack.token(W, ['contacts:write', 'deals:write'], { name: 'nightly sync' });
const rest = restClient(stack.baseUrl, writer);
const contact = (await rest.post<{ id: string }>('/v1/contacts', { first_name: 'Grace', phone: '+1 415 555 0400' })).body;
await rest.send('PATCH', `/v1/contacts/${contact.id}`, { body: { first_name: 'Grace H.' } });
await rest.post('/v1/deals', { name: 'Renewal' });

t.test('the tool lists changes with who made them and what changed', async (t) => {
  const agent = await connect(await stack.token(W, ['contacts:read', 'deals:read', 'events:read']));
  const tools = await agent.listTools();
  const tool = tools.tools.find((x) => x.name === 'recent_changes');
  t.ok(tool, 'offered to a connection with events:read');
  t.equal(tool?.annotations?.readOnlyHint, true);

  const all = (await agent.callTool({ name: 'recent_changes', arguments: {} })) as Result;
  t.notOk(all.isError, JSON.stringify(all.content));
  t.same(all.structuredContent?.changes.map((c) => c.type), ['deal.created', 'contact.updated', 'contact.created']);
  t.match(all.structuredContent?.changes[1], { by: { kind: 'api_token', name: 'nightly sync' }, object_id: contact.id, changed: { first_name: { from: 'Grace', to: 'Grace H.' } } });

  const deals = (await agent.callTool({ name: 'recent_changes', arguments: { object_type: 'deal' } })) as Result;
  t.same(deals.structuredContent?.changes.map((c) => c.type), ['deal.created']);
  const paged = (await agent.callTool({ name: 'recent_changes', arguments: { limit: 2 } })) as Result;
  t.equal(paged.structuredContent?.changes.length, 2);
  t.equal(paged.structuredContent?.has_more, true);
  const rest2 = (await agent.callTool({ name: 'recent_changes', arguments: { limit: 2, cursor: paged.structuredContent?.next_cursor } })) as Result;
  t.same(rest2.structuredContent?.changes.map((c) => c.type), ['contact.created'], 'the cursor continues');
  const later = (await agent.callTool({ name: 'recent_changes', arguments: { since: new Date(Date.now() + 60_000).toISOString() } })) as Result;
  t.same(later.structuredContent?.changes, [], 'since');

  const mismatch = (await agent.callTool({ name: 'recent_changes', arguments: { object_type: 'contact', type: 'deal.created' } })) as Result;
  t.ok(mismatch.isError, 'a type that contradicts the kind is an error, not an empty list');
});

t.test('a connection sees only changes to what it may read', async (t) => {
  const contactsOnly = await connect(await stack.token(W, ['contacts:read', 'events:read']));
  const seen = (await contactsOnly.callTool({ name: 'recent_changes', arguments: {} })) as Result;
  t.same(seen.structuredContent?.changes.map((c) => c.type), ['contact.updated', 'contact.created']);
  const noEvents = await connect(await stack.token(W, ['contacts:read']));
  const refused = (await noEvents.callTool({ name: 'recent_changes', arguments: {} })) as Result;
  t.ok(refused.isError, 'refused without events:read');
  t.match(refused.content?.[0]?.text, /events:read/, 'naming the scope');
});

t.test('actor_kind keeps the changes one kind of actor made; an exact type keeps that type only', async (t) => {
  // A workspace of its own: changes by a REST token, and by `crm import` (actor kind import).
  const other = await stack.bootstrap({ defaultCountry: 'US' });
  const O = other.workspace.id;
  const rest = restClient(stack.baseUrl, await stack.token(O, ['contacts:write', 'deals:write'], { name: 'rest writer' }));
  const written = (await rest.post<{ id: string }>('/v1/contacts', { first_name: 'Linus', phone: '+1 415 555 0500' })).body;
  await rest.send('PATCH', `/v1/contacts/${written.id}`, { body: { first_name: 'Linus T.' } });
  await rest.post('/v1/deals', { name: 'Upgrade' });
  const dir = await mkdtemp(path.join(tmpdir(), 'crm-recent-changes-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'contacts.csv');
  await writeFile(file, 'first_name,phone\nAda,+1 415 555 0501\nAlan,+1 415 555 0502\n');
  const imported = await stack.crm(['import', 'contacts', file, '--workspace', O, '--json']);
  t.equal(imported.code, 0, imported.stderr);

  const agent = await connect(await stack.token(O, ['contacts:read', 'deals:read', 'events:read']));
  const changes = async (args: Record<string, unknown>) => {
    const result = (await agent.callTool({ name: 'recent_changes', arguments: args })) as Result;
    if (result.isError) t.fail(`recent_changes ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`);
    return result.structuredContent?.changes ?? [];
  };
  const all = await changes({});
  t.same(all.map((c) => c.by.kind), ['import', 'import', 'api_token', 'api_token', 'api_token'], 'both kinds of actor are in the workspace');

  const byToken = await changes({ actor_kind: 'api_token' });
  t.same(byToken.map((c) => c.type), ['deal.created', 'contact.updated', 'contact.created'], 'api_token: the REST writes only');
  t.ok(byToken.every((c) => c.by.kind === 'api_token' && c.by.name === 'rest writer'));
  const byImport = await changes({ actor_kind: 'import' });
  t.same(byImport.map((c) => c.type), ['contact.created', 'contact.created'], 'import: the imported rows only');
  t.ok(byImport.every((c) => c.by.kind === 'import'));
  t.same(byImport.map((c) => c.record.first_name).sort(), ['Ada', 'Alan']);
  t.same(await changes({ actor_kind: 'console_user' }), [], 'a kind that changed nothing: none');
  const writerId = byToken[0]?.by.id;
  t.match(writerId, /^tok_/);
  t.same((await changes({ actor_id: writerId })).map((c) => c.id), byToken.map((c) => c.id), "actor_id: one actor's changes (here the only token that wrote)");
  t.same(await changes({ actor_id: 'tok_nobody' }), [], 'an actor that changed nothing: none');

  const createdOnly = await changes({ type: 'contact.created' });
  t.same(createdOnly.map((c) => c.type), ['contact.created', 'contact.created', 'contact.created'], 'an exact type: that type, whoever made it');
  t.same(createdOnly.map((c) => c.record.first_name).sort(), ['Ada', 'Alan', 'Linus'], 'the record as each change left it');
  t.same((await changes({ type: 'contact.updated' })).map((c) => c.object_id), [written.id], 'contact.updated: the one update');
  t.same((await changes({ type: 'contact.created', actor_kind: 'api_token' })).map((c) => c.object_id), [written.id], 'type and actor_kind together');
});

t.test('days and periods are read in the workspace time zone, and echoed as the instants they meant', async (t) => {
  const tokyo = await stack.bootstrap({ defaultCountry: 'JP' });
  const T = tokyo.workspace.id;
  const admin = restClient(stack.baseUrl, await stack.token(T, ['contacts:write', 'schema:write'], { name: 'tokyo admin' }));
  t.equal((await admin.send('PATCH', '/v1/workspace', { body: { time_zone: 'Asia/Tokyo' } })).status, 200);
  t.equal((await admin.post('/v1/contacts', { first_name: 'Yuki', phone: '+81 3-1234-5678' })).status, 201);
  const agent = await connect(await stack.token(T, ['contacts:read', 'events:read']));
  type Ranged = Result & { structuredContent?: { applied_range?: { since: string | null; before: string | null; time_zone: string } } };

  const today = (await agent.callTool({ name: 'recent_changes', arguments: { within: 'today', object_type: 'contact' } })) as Ranged;
  t.notOk(today.isError, JSON.stringify(today.content));
  t.same(today.structuredContent?.changes.map((c) => c.type), ['contact.created']);
  const range = today.structuredContent?.applied_range;
  t.equal(range?.time_zone, 'Asia/Tokyo');
  t.match(range?.since, /T15:00:00\.000Z$/, "today begins at Tokyo's midnight, 15:00 UTC the day before");
  t.equal(Date.parse(range?.before ?? '') - Date.parse(range?.since ?? ''), 86_400_000);

  const fromDay = (await agent.callTool({ name: 'recent_changes', arguments: { since: '2020-01-01', object_type: 'contact' } })) as Ranged;
  t.equal(fromDay.structuredContent?.applied_range?.since, '2019-12-31T15:00:00.000Z', 'a day starts at its start there');
  t.equal(fromDay.structuredContent?.changes.length, 1);
  const plain = (await agent.callTool({ name: 'recent_changes', arguments: { since: '2020-01-01T00:00:00Z' } })) as Ranged;
  t.equal(plain.structuredContent?.applied_range, undefined, 'an instant needs no time zone');

  const { tools } = await agent.listTools();
  const tool = tools.find((x) => x.name === 'recent_changes');
  const since = (tool?.inputSchema.properties as Record<string, { description?: string }>).since;
  t.match(since?.description, /strictly after this instant \(exclusive: a change at exactly it is left out/, 'since says an instant itself is not included');
  t.match(since?.description, /start of this day .* inclusive/, 'and a day is, from its start');
  t.match(since?.description, /applied_range\.since/, 'and names its echo');
  t.notMatch(JSON.stringify(tool?.outputSchema), /created_after|created_before/, 'the echo uses the names the tool takes');
  t.same(Object.keys(range ?? {}).sort(), ['before', 'since', 'time_zone']);
  const at = (today.structuredContent as { changes: { at: string; type: string }[] } | undefined)?.changes[0]?.at ?? '';
  const fromThatInstant = (await agent.callTool({ name: 'recent_changes', arguments: { since: at, object_type: 'contact' } })) as Ranged;
  t.same(fromThatInstant.structuredContent?.changes, [], 'a change at the since instant itself is not listed, as the description says');

  const both = (await agent.callTool({ name: 'recent_changes', arguments: { since: '2020-01-01', within: 'today' } })) as Result;
  t.ok(both.isError, 'since and within together are an error');
  t.match(both.content?.[0]?.text, /within/);
  const notADay = (await agent.callTool({ name: 'recent_changes', arguments: { since: '2026-02-30' } })) as Result;
  t.ok(notADay.isError, 'not a calendar date');
});

t.test('asking for a kind of record the connection cannot read is an error naming the scope, not an empty list', async (t) => {
  const contactsOnly = await connect(await stack.token(W, ['contacts:read', 'events:read']));
  for (const args of [{ object_type: 'deal' }, { type: 'deal.created' }, { object_type: 'token' }]) {
    const refused = (await contactsOnly.callTool({ name: 'recent_changes', arguments: args })) as Result & { structuredContent?: { required_scope?: string; hint?: string } };
    t.ok(refused.isError, JSON.stringify(args));
    const scope = args.object_type === 'token' ? 'tokens:write' : 'deals:read';
    t.equal(refused.structuredContent?.required_scope, scope);
    t.match(refused.structuredContent?.hint, `an API token with ${scope}`, 'the same remedy as a scope the tool declares');
    // object_type is sent to the worker as a type prefix (`token.`): the message names the kind, not the prefix.
    const what = 'object_type' in args ? `Events about ${args.object_type} records need the scope ${scope}` : `Events of type ${args.type} need the scope ${scope}`;
    t.match((refused.structuredContent as { message?: string } | undefined)?.message, what);
  }
  const notes = (await contactsOnly.callTool({ name: 'recent_changes', arguments: { object_type: 'note' } })) as Result;
  t.notOk(notes.isError, 'notes on contacts are readable with contacts:read');
});

t.test('a kind of record given as type (contact., as the REST feed takes it, or contact.*) is answered with object_type', async (t) => {
  // Before, the error listed all thirty event types and never named object_type, the argument that takes a kind.
  const agent = await connect(await stack.token(W, ['contacts:read', 'deals:read', 'events:read']));
  for (const type of ['contact.', 'contact.*', ' deal. ']) {
    const kind = type.trim().split('.')[0]!;
    const res = (await agent.callTool({ name: 'recent_changes', arguments: { type } })) as Result;
    t.ok(res.isError, JSON.stringify(type));
    const text = res.content?.[0]?.text ?? '';
    t.match(text, `type: is one kind of change (e.g. ${kind}.created); for every change to a ${kind}, leave type out and give object_type "${kind}"`, JSON.stringify(type));
    t.notMatch(text, /custom_field\.archived/, 'not the list of every type');
  }
  const unknown = (await agent.callTool({ name: 'recent_changes', arguments: { type: 'contact.exploded' } })) as Result;
  t.match(unknown.content?.[0]?.text, /type: must be one of: contact\.created, /, 'any other wrong type still lists the types');
  const notAKind = (await agent.callTool({ name: 'recent_changes', arguments: { type: 'invoice.' } })) as Result;
  t.match(notAKind.content?.[0]?.text, /type: must be one of: contact\.created, /, 'nor is a kind the CRM does not have named as one');
  const asSuggested = (await agent.callTool({ name: 'recent_changes', arguments: { object_type: 'contact' } })) as Result;
  t.notOk(asSuggested.isError, 'what the message suggests works');
});

t.test('a name or an e-mail as object_id or actor_id is refused saying what id it takes, not answered with an empty list', async (t) => {
  const agent = await connect(await stack.token(W, ['contacts:read', 'deals:read', 'events:read']));
  const call = async (args: Record<string, unknown>) => (await agent.callTool({ name: 'recent_changes', arguments: args })) as Result & { structuredContent?: { code?: string; param?: string; message?: string } };
  const byName = await call({ object_id: 'Grace' });
  t.equal(byName.isError, true, 'not "nothing changed"');
  t.match(byName.structuredContent, { code: 'validation_failed', param: 'object_id', message: /must be a record's id \(con_…, deal_…, note_….*not a name or an e-mail: find_contacts/ });
  const byEmail = await call({ actor_id: 'boss@example.test' });
  t.match(byEmail.structuredContent, { code: 'validation_failed', param: 'actor_id', message: /must be an actor's id \(tok_…, gnt_…, usr_…\).*whoami's authorized_by\.id.*actor_kind/ });
  const found = (await call({ object_id: ` ${contact.id}` })).structuredContent as unknown as { changes: { object_id: string }[] };
  t.same([...new Set(found.changes.map((c) => c.object_id))], [contact.id], 'an id still finds its changes');
});
