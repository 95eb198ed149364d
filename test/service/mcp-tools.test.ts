import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import t, { type Test } from 'tap';
import { authorizeWithForms, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { ROOT } from '../helpers/environment.js';
import { client as restClient } from '../helpers/http.js';
import type { ErrorBody } from '../helpers/api-types.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/** The tool servers on real data, through the MCP SDK's own client. */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Tools Inc', workspace: 'Main', email: 'boss@tools.test', defaultCountry: 'US' });
const W = ws.workspace.id;

async function connect(server: 'crm' | 'studio', bearer: string): Promise<Client> {
  const client = new Client({ name: 'tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/${server}`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  t.teardown(() => client.close());
  return client;
}
type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text?: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;
const ok = (t: Test, r: Result) => {
  t.notOk(r.isError, r.isError ? JSON.stringify(r.content) : 'ok');
  return r.structuredContent as Record<string, never>;
};

// Real data: 60 contacts over January, deals in every stage; a custom field.
const admin = restClient(stack.baseUrl, await stack.token(W, ['contacts:write', 'deals:write', 'schema:write']));
await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['gold', 'silver'] });
await stack.db.query(
  `insert into contacts (id, workspace_id, first_name, phone, status, custom_fields, created_at, updated_at)
   select 'con_T' || lpad(i::text, 3, '0'), $1, 'Person ' || i, '+1415555' || lpad(i::text, 4, '0'), 'active', '{}',
          timestamptz '2026-01-01T00:00:00Z' + i * interval '12 hours', now()
   from generate_series(1, 60) as i`,
  [W],
);
const pipeline = (await admin.get<{ data: { stages: { id: string; name: string }[] }[] }>('/v1/pipelines')).body.data[0];
for (const [i, stage] of (pipeline?.stages ?? []).entries()) {
  for (let n = 0; n <= i; n++) await admin.post('/v1/deals', { name: `${stage.name} deal ${n}`, stage_id: stage.id });
}

const fullToken = await stack.token(W, ['contacts:write', 'deals:write', 'schema:read', 'studio:write']);

t.test('every tool declares input and output schemas and annotations; write tools only for writers', async (t) => {
  const crm = await connect('crm', fullToken);
  const { tools } = await crm.listTools();
  for (const tool of tools) {
    t.equal(tool.inputSchema.type, 'object', `${tool.name}: input schema`);
    t.equal(tool.outputSchema?.type, 'object', `${tool.name}: output schema`);
    t.type(tool.annotations?.readOnlyHint, 'boolean', `${tool.name}: readOnlyHint`);
    t.type(tool.annotations?.destructiveHint, 'boolean', `${tool.name}: destructiveHint`);
    t.ok(tool.description, `${tool.name}: described`);
  }
  t.same(tools.map((x) => x.name).sort(), [
    'add_note',
    'count_contacts',
    'count_deals',
    'create_contact',
    'create_deal',
    'describe_schema',
    'find_contacts',
    'find_deals',
    'get_contact',
    'get_deal',
    'list_notes',
    'recent_changes',
    'update_contact',
    'update_deal',
    'whoami',
  ]);
  const readOnly = await connect('crm', await stack.token(W, ['contacts:read', 'deals:read']));
  t.same((await readOnly.listTools()).tools.map((x) => x.name).sort(), ['count_contacts', 'count_deals', 'describe_schema', 'find_contacts', 'find_deals', 'get_contact', 'get_deal', 'list_notes', 'recent_changes', 'whoami']);
  const studio = await connect('studio', fullToken);
  const studioTools = (await studio.listTools()).tools;
  t.same(studioTools.map((x) => x.name).sort(), [
    'archive_custom_field', 'archive_stage', 'create_custom_field', 'create_pipeline', 'create_stage', 'get_pipeline', 'list_custom_fields', 'list_pipelines', 'update_custom_field', 'update_pipeline', 'update_stage', 'whoami',
  ]);
  // Studio's arguments are design words a model easily confuses (a field's key and its label): each one says what it takes.
  for (const tool of studioTools) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
    const undescribed = Object.entries(properties).filter(([, p]) => !p.description).map(([name]) => name);
    t.same(undescribed, [], `${tool.name}: every argument is described`);
  }
  const createField = studioTools.find((x) => x.name === 'create_custom_field');
  const fieldArguments = (createField?.inputSchema.properties ?? {}) as Record<string, { description?: string; enum?: string[] }>;
  t.match(fieldArguments.key?.description, /lower snake case.*Not the label/, 'key: the stored name, not the label');
  t.same(fieldArguments.type?.enum, ['text', 'number', 'boolean', 'date', 'select'], 'type: an enum');
});

t.test('whoami with an API token', async (t) => {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  for (const server of ['crm', 'studio'] as const) {
    const tools = await connect(server, fullToken);
    t.equal(tools.getServerVersion()?.version, version, `the ${server} server gives the package's version`);
    const who = ok(t, await call(tools, 'whoami'));
    t.match(who, {
      credential_kind: 'api_token',
      reads_company_wide: true,
      workspace: { id: W, name: 'Main' },
      organization: { name: 'Tools Inc' },
      authorized_by: { type: 'token', name: 'crm command line' },
    });
  }
});

t.test('CRM capabilities on real data: count, describe, contacts by creation date, deals by stage name', async (t) => {
  const crm = await connect('crm', fullToken);
  const count = ok(t, await call(crm, 'count_contacts'));
  const [sqlCount] = await stack.db.query<{ n: string }>('select count(*) n from contacts where workspace_id = $1', [W]);
  t.equal(count.count, Number(sqlCount?.n));

  const schema = ok(t, await call(crm, 'describe_schema')) as unknown as { custom_fields: { contact: { key: string; options: string[] }[] }; pipelines: { stages: { name: string }[] }[] };
  t.same(schema.custom_fields.contact.map((f) => [f.key, f.options]), [['tier', ['gold', 'silver']]]);
  t.same(schema.pipelines[0]?.stages.map((s) => s.name), ['Lead', 'Qualified', 'Negotiation', 'Won', 'Lost']);

  const range = { created_after: '2026-01-10T00:00:00Z', created_before: '2026-01-20T00:00:00Z' };
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = ok(t, await call(crm, 'find_contacts', { ...range, limit: 7, cursor })) as unknown as { contacts: { id: string }[]; next_cursor: string | null };
    seen.push(...page.contacts.map((c) => c.id));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  const expected = await stack.db.query<{ id: string }>('select id from contacts where workspace_id = $1 and created_at >= $2 and created_at < $3 order by created_at, id', [W, range.created_after, range.created_before]);

  // find_contacts answers with the worker's rows spliced in: the same page as REST, and the text is the structured content.
  const reader = restClient(stack.baseUrl, fullToken);
  const rest = await reader.get<{ data: unknown[]; meta: { has_more: boolean }; applied_range: unknown }>(`/v1/contacts?limit=7&created_after=${range.created_after}&created_before=${range.created_before}`);
  const spliced = await call(crm, 'find_contacts', { ...range, limit: 7 });
  const structured = ok(t, spliced) as unknown as { contacts: unknown[]; has_more: boolean; applied_range: unknown };
  t.same(structured.contacts, rest.body.data, 'the rows of the REST page, custom fields and all');
  t.equal(structured.has_more, rest.body.meta.has_more);
  t.same(structured.applied_range, rest.body.applied_range);
  t.same(Object.keys(structured).sort(), ['applied_range', 'contacts', 'has_more', 'next_cursor'], 'the position beside the rows, limit aside');
  t.same(JSON.parse(spliced.content?.[0]?.text ?? 'null'), structured, 'the text is the structured content');
  t.same(seen, expected.map((r) => r.id), `${expected.length} contacts in the range, paged`);
  t.equal(ok(t, await call(crm, 'count_contacts', range)).count, expected.length, 'counted with the same filter');

  const deals = ok(t, await call(crm, 'find_deals', { stage: 'negotiation', limit: 100 })) as unknown as { deals: { name: string; stage_id: string }[] };
  t.equal(deals.deals.length, 3);
  t.ok(deals.deals.every((d) => d.name.startsWith('Negotiation')));
  const newest = ok(t, await call(crm, 'find_deals', { stage: 'negotiation', sort: 'newest_first', limit: 2 })) as unknown as { deals: { id: string }[] };
  t.same(newest.deals.map((d) => d.id), (deals.deals as unknown as { id: string }[]).map((d) => d.id).reverse().slice(0, 2), 'sort: newest_first gives the latest deals');
  const noStage = await call(crm, 'find_deals', { stage: 'Negociation' });
  t.equal(noStage.isError, true);
  t.match(noStage.content?.[0]?.text, /not_found: No such stage: Negociation/);

  const first = (ok(t, await call(crm, 'find_contacts', { limit: 1 })) as unknown as { contacts: { id: string }[] }).contacts[0];
  t.equal(ok(t, await call(crm, 'get_contact', { id: first?.id })).id, first?.id);
  const moved = ok(t, await call(crm, 'update_deal', { id: (deals.deals[0] as unknown as { id: string }).id, stage_id: pipeline?.stages[3]?.id }));
  t.equal(moved.stage_id, pipeline?.stages[3]?.id, 'update_deal moves a deal between stages');
  const bad = await call(crm, 'create_contact', { first_name: 'Bad', phone: 'not a phone' });
  t.equal(bad.isError, true, 'worker validation comes back as a tool error');
  t.match(bad.content?.[0]?.text, /phone/);
});

t.test('every Studio tool changes what describe_schema on the CRM server then shows', async (t) => {
  const studio = await connect('studio', fullToken);
  const crm = await connect('crm', fullToken);
  const describe = async () =>
    ok(t, await call(crm, 'describe_schema')) as unknown as {
      custom_fields: { deal: { id: string; key: string; label: string }[] };
      pipelines: { id: string; name: string; stages: { id: string; name: string; position: number | null; archived: boolean }[] }[];
    };

  const field = ok(t, await call(studio, 'create_custom_field', { object_type: 'deal', key: 'source', label: 'Source', type: 'text' }));
  t.ok((await describe()).custom_fields.deal.some((f) => f.key === 'source'), 'create_custom_field');
  ok(t, await call(studio, 'update_custom_field', { id: field.id, label: 'Lead source' }));
  t.equal((await describe()).custom_fields.deal.find((f) => f.key === 'source')?.label, 'Lead source', 'update_custom_field');
  t.ok((ok(t, await call(studio, 'list_custom_fields', { object_type: 'deal' })) as unknown as { custom_fields: { key: string }[] }).custom_fields.some((f) => f.key === 'source'), 'list_custom_fields');
  ok(t, await call(studio, 'archive_custom_field', { id: field.id }));
  t.notOk((await describe()).custom_fields.deal.some((f) => f.key === 'source'), 'archive_custom_field');

  const created = ok(t, await call(studio, 'create_pipeline', { name: 'Partners', stages: ['Intro', 'Pilot'] }));
  t.ok((await describe()).pipelines.some((p) => p.name === 'Partners'), 'create_pipeline');
  ok(t, await call(studio, 'create_stage', { pipeline_id: created.id, name: 'Signed' }));
  const stagesOf = async () => (await describe()).pipelines.find((p) => p.id === created.id)?.stages ?? [];
  t.same((await stagesOf()).map((s) => s.name), ['Intro', 'Pilot', 'Signed'], 'create_stage');
  const signed = (await stagesOf()).find((s) => s.name === 'Signed');
  ok(t, await call(studio, 'update_stage', { pipeline_id: created.id, stage_id: signed?.id, name: 'Contract', position: 0 }));
  t.same((await stagesOf()).map((s) => s.name), ['Contract', 'Intro', 'Pilot'], 'update_stage renames and reorders');
  ok(t, await call(studio, 'archive_stage', { pipeline_id: created.id, stage_id: signed?.id }));
  t.same((await stagesOf()).map((s) => [s.name, s.archived]), [['Intro', false], ['Pilot', false], ['Contract', true]], 'archive_stage');
  t.ok((ok(t, await call(studio, 'list_pipelines')) as unknown as { pipelines: { id: string }[] }).pipelines.some((p) => p.id === created.id), 'list_pipelines');
});

t.test('scopes: a tool error naming the scope; 403 for a credential that cannot use the server', async (t) => {
  const contactsOnly = await stack.token(W, ['contacts:read']);
  const crm = await connect('crm', contactsOnly);
  const denied = await call(crm, 'find_deals', { stage: 'Lead' });
  t.equal(denied.isError, true);
  t.match(denied.content?.[0]?.text, /needs the scope deals:read/);
  const res = await fetch(`${stack.baseUrl}/mcp/studio`, {
    method: 'POST',
    headers: { authorization: `Bearer ${contactsOnly}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  t.equal(res.status, 403);
  t.match(res.headers.get('www-authenticate'), /^Bearer error="insufficient_scope", .*scope="studio:read"/);
  // A token not valid (expired, revoked, unknown) is challenged with the scopes to ask for again, as the first 401 is; it named none.
  const invalid = await fetch(`${stack.baseUrl}/mcp/crm`, {
    method: 'POST',
    headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  t.equal(invalid.status, 401);
  t.match(invalid.headers.get('www-authenticate'), /^Bearer error="invalid_token", .*scope="contacts:read deals:read schema:read events:read contacts:write deals:write", resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp\/crm"$/);
  const studioReader = await connect('studio', await stack.token(W, ['studio:read']));
  const write = await call(studioReader, 'create_pipeline', { name: 'Nope' });
  t.equal(write.isError, true, 'a write tool is not even listed to a reader');
});

t.test('an owned-visibility member over OAuth: whoami says so, reads and counts only their own', async (t) => {
  const rep = await stack.addMember(W, 'rep@tools.test', ['contacts.write', 'deals.read'], 'owned');
  for (let i = 0; i < 3; i++) await admin.post('/v1/contacts', { first_name: `Rep's ${i}`, phone: `+1 646 555 01${i}0`, owner_id: rep });
  const redirect = 'http://127.0.0.1:9/cb';
  const clientId = await registerClient(stack.baseUrl, redirect);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: stack.baseUrl, clientId, redirectUri: redirect, server: 'crm', email: 'rep@tools.test', password: TEST_PASSWORD, challenge });
  const tokens = await tokenRequest(stack.baseUrl, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: redirect });
  const crm = await connect('crm', String(tokens.body.access_token));
  const who = ok(t, await call(crm, 'whoami'));
  t.equal(who.reads_company_wide, false);
  t.match(who, { credential_kind: 'oauth', authorized_by: { type: 'user', id: rep, email: 'rep@tools.test' } });
  t.equal(ok(t, await call(crm, 'count_contacts')).count, 3, 'counts only owned contacts');
  const found = ok(t, await call(crm, 'find_contacts', { limit: 100 })) as unknown as { contacts: { owner_id: string }[] };
  t.equal(found.contacts.length, 3);
  t.ok(found.contacts.every((c) => c.owner_id === rep));
  t.same((ok(t, await call(crm, 'find_deals', { limit: 100 })) as unknown as { deals: unknown[] }).deals, [], 'and no deals (it owns none)');
  const someoneElses = await call(crm, 'get_contact', { id: 'con_T001' });
  t.equal(someoneElses.isError, true, "another member's contact is not found");
});

t.test('addresses, methods, hosts and bodies', async (t) => {
  const wrong = await fetch(`${stack.baseUrl}/mcp/crm-server`, { method: 'POST' });
  t.equal(wrong.status, 404);
  t.equal(((await wrong.json()) as ErrorBody).error.message, `There is no tool server at /mcp/crm-server. The tool servers are ${stack.baseUrl}/mcp/crm and ${stack.baseUrl}/mcp/studio.`, 'a wrong URL is told the right ones');
  t.equal((await fetch(`${stack.baseUrl}/mcp/crm`, { headers: { authorization: `Bearer ${fullToken}` } })).status, 405, 'GET: no server-to-client stream on a stateless server');
  const post = (headers: Record<string, string>, body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })) =>
    fetch(`${stack.baseUrl}/mcp/crm`, { method: 'POST', headers: { authorization: `Bearer ${fullToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
  t.equal((await post({})).status, 200);
  t.equal((await post({ origin: 'https://evil.example' })).status, 403, 'a foreign Origin is refused (DNS rebinding)');
  // fetch will not send a Host of our choosing; a raw request does, as a rebinding browser would.
  const withHost = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const req = http.request(`${stack.baseUrl}/mcp/crm`, {
        method: 'POST',
        headers: { host, authorization: `Bearer ${fullToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
  t.equal(await withHost('evil.example'), 403, 'a foreign Host is refused');
  t.equal(await withHost(`127.0.0.1:${new URL(stack.baseUrl).port}`), 200, 'the raw request works with a proper Host');
  t.equal((await post({ host: `localhost:${new URL(stack.baseUrl).port}` })).status, 200, 'localhost on any port is this service');
  const parse = await post({}, '{"jsonrpc": "2.0", "id": 1, "method": ');
  t.equal(parse.status, 400);
  t.equal(((await parse.json()) as { error: { code: number } }).error.code, -32700, 'JSON-RPC parse error');
  const protoKey = await post({}, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_contacts","arguments":{"__proto__":{"x":1}}}}');
  t.equal(protoKey.status, 400);
  t.match(await protoKey.json(), { id: null, error: { code: -32700, message: /__proto__/ } }, 'a __proto__ key: the reason, not a bare "Parse error"');
  // These were answered with the REST error body, which a JSON-RPC client cannot read.
  const tooLarge = await post({}, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { padding: 'x'.repeat(2_000_000) } }));
  t.equal(tooLarge.status, 413);
  t.match(await tooLarge.json(), { jsonrpc: '2.0', id: null, error: { code: -32000, message: /too large/ } }, 'a body too large: JSON-RPC error');
  const latin1 = await post({ 'content-type': 'application/json; charset=latin1' });
  t.equal(latin1.status, 415);
  t.match(await latin1.json(), { jsonrpc: '2.0', id: null, error: { code: -32000, message: /UTF-8/ } }, 'another charset: JSON-RPC error');
  // The SDK would parse these before its handlers run and answer -32603 "internal error".
  // Every method either server answers, the SDK's own (`logging/setLevel`, found by the hostile-input fuzzer) included.
  const malformed = [
    { jsonrpc: '2.0', id: 'x', method: 'tools/call' },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: {} } },
    { jsonrpc: '2.0', id: 3, method: 'initialize' },
    { jsonrpc: '2.0', id: 4, method: 'logging/setLevel' },
    { jsonrpc: '2.0', id: 5, method: 'logging/setLevel', params: { level: 'loud' } },
    { jsonrpc: '2.0', id: 6, method: 'resources/read' },
    { jsonrpc: '2.0', id: 7, method: 'prompts/get', params: {} },
    { jsonrpc: '2.0', id: 8, method: 'completion/complete', params: { ref: { type: 'ref/prompt' } } },
  ];
  for (const request of malformed) {
    const res = await post({}, JSON.stringify(request));
    t.equal(res.status, 200);
    t.match(await res.json(), { jsonrpc: '2.0', id: request.id, error: { code: -32602, message: new RegExp(`^Invalid params for ${request.method}: `) } }, `${request.method} ${JSON.stringify(request.params ?? null)}: invalid params`);
  }
});

t.test('crm mcp-config prints the client configuration; a token is only referenced', async (t) => {
  const plain = await stack.crm(['mcp-config', '--url', 'https://crm.example.com']);
  t.same(JSON.parse(plain.stdout), { mcpServers: { crm: { type: 'http', url: 'https://crm.example.com/mcp/crm' }, studio: { type: 'http', url: 'https://crm.example.com/mcp/studio' } } });
  const withToken = await stack.crm(['mcp-config', '--url', 'https://crm.example.com', '--token-env', 'CRM_TOKEN']);
  t.same(JSON.parse(withToken.stdout).mcpServers.crm, { type: 'http', url: 'https://crm.example.com/mcp/crm', headers: { Authorization: 'Bearer ${CRM_TOKEN}' } });
  const literal = await stack.crm(['mcp-config', '--token-env', 'sk_live_abc']);
  t.equal(literal.code, 2, 'a token given in place of a variable name is refused');
});

t.test('find_deals and count_deals filter by owner_id, as REST GET /v1/deals does', async (t) => {
  const seller = await stack.addMember(W, 'seller@tools.test', ['deals.write'], 'all');
  for (let n = 0; n < 2; n++) await admin.post('/v1/deals', { name: `Seller's deal ${n}`, stage_id: pipeline?.stages[0]?.id, owner_id: seller });
  const crm = await connect('crm', fullToken);
  const found = ok(t, await call(crm, 'find_deals', { owner_id: seller, limit: 100 })) as unknown as { deals: { name: string; owner_id: string }[] };
  t.same(found.deals.map((d) => d.name), ["Seller's deal 0", "Seller's deal 1"], "only the member's deals");
  t.ok(found.deals.every((d) => d.owner_id === seller));
  const rest = await restClient(stack.baseUrl, fullToken).get<{ data: { id: string }[] }>(`/v1/deals?owner_id=${seller}&limit=100`);
  t.same((found.deals as unknown as { id: string }[]).map((d) => d.id), rest.body.data.map((d) => d.id), 'the same deals as REST');
  t.equal(ok(t, await call(crm, 'count_deals', { owner_id: seller })).count, 2, 'counted with the same filter');
  const nobody = await call(crm, 'find_deals', { owner_id: 'usr_nobody' });
  t.equal(nobody.isError, true, 'an unknown member is a tool error');
  t.match(nobody.structuredContent, { code: 'not_found', param: 'owner_id' });
});
