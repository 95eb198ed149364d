import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/** Endpoints and tools that were each added with one declaration: GET /v1/tokens/{id}, get_deal, GET /v1/schema and get_pipeline. */
const stack = await useStack(t);
const ws = await stack.bootstrap();
const W = ws.workspace.id;

t.test('GET /v1/tokens/{id}: one token, revoked or not, without its secret; tokens:write only', async (t) => {
  const admin = client(stack.baseUrl, await stack.token(W, ['tokens:write', 'contacts:read']));
  const created = await admin.post<{ id: string }>('/v1/tokens', { name: 'Reporting', scopes: ['contacts:read'] });
  t.equal(created.status, 201);
  const read = await admin.get<{ id: string; name: string; token?: string; revoked_at: string | null }>(`/v1/tokens/${created.body.id}`);
  t.equal(read.status, 200);
  t.match(read.body, { id: created.body.id, name: 'Reporting', revoked_at: null });
  t.notOk('token' in read.body, 'never the secret');
  await admin.send('DELETE', `/v1/tokens/${created.body.id}`);
  t.type((await admin.get<{ revoked_at: string | null }>(`/v1/tokens/${created.body.id}`)).body.revoked_at, 'string', 'a revoked token is still readable');
  t.equal((await admin.get('/v1/tokens/tok_missing')).status, 404);
  const reader = client(stack.baseUrl, await stack.token(W, ['contacts:read']));
  const denied = await reader.get<{ error: { required_scope: string } }>(`/v1/tokens/${created.body.id}`);
  t.equal(denied.status, 403);
  t.equal(denied.body.error.required_scope, 'tokens:write');
});

t.test('get_deal: one deal by id, read-only, for a deals:read connection', async (t) => {
  const writer = client(stack.baseUrl, await stack.token(W, ['deals:write']));
  const deal = (await writer.post<{ id: string }>('/v1/deals', { name: 'Renewal', amount: 120000, currency: 'EUR' })).body;
  const mcp = new Client({ name: 'examples-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/crm`), { requestInit: { headers: { Authorization: `Bearer ${await stack.token(W, ['deals:read'])}` } } }),
  );
  t.teardown(() => mcp.close());
  const listed = (await mcp.listTools()).tools.find((x) => x.name === 'get_deal');
  t.match(listed?.annotations, { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  const found = (await mcp.callTool({ name: 'get_deal', arguments: { id: deal.id } })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
  t.notOk(found.isError);
  t.match(found.structuredContent, { object: 'deal', id: deal.id, name: 'Renewal', amount: 120000, currency: 'EUR' });
  const missing = (await mcp.callTool({ name: 'get_deal', arguments: { id: 'deal_missing' } })) as { isError?: boolean; content?: { text?: string }[] };
  t.equal(missing.isError, true);
  t.match(missing.content?.[0]?.text, /^not_found: /);
});

t.test('GET /v1/schema: the workspace design in one answer, for any token that reads data', async (t) => {
  const designer = client(stack.baseUrl, await stack.token(W, ['schema:write']));
  const field = await designer.post<{ key: string }>('/v1/custom-fields', { object_type: 'deal', key: 'region', label: 'Region', type: 'text' });
  t.equal(field.status, 201);
  for (const scopes of [['contacts:read'], ['deals:read'], ['schema:read']]) {
    const res = await client(stack.baseUrl, await stack.token(W, scopes)).get<{ custom_fields: { deal: { key: string }[] }; pipelines: { name: string; stages: unknown[] }[] }>('/v1/schema');
    t.equal(res.status, 200, scopes.join());
    t.ok(res.body.custom_fields.deal.some((f) => f.key === 'region'), 'its custom fields');
    t.match(res.body.pipelines, [{ name: 'Sales', stages: Array }], 'its pipelines with their stages');
  }
  const denied = await client(stack.baseUrl, await stack.token(W, ['tokens:write'])).get<{ error: { required_scope: string } }>('/v1/schema');
  t.equal(denied.status, 403);
  t.equal(denied.body.error.required_scope, 'schema:read');
});

t.test('get_pipeline: one pipeline by id on the Studio server, read-only', async (t) => {
  const pipelines = (await client(stack.baseUrl, await stack.token(W, ['schema:read'])).get<{ data: { id: string; name: string }[] }>('/v1/pipelines')).body.data;
  const mcp = new Client({ name: 'examples-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/studio`), { requestInit: { headers: { Authorization: `Bearer ${await stack.token(W, ['studio:read'])}` } } }),
  );
  t.teardown(() => mcp.close());
  const listed = (await mcp.listTools()).tools.find((x) => x.name === 'get_pipeline');
  t.match(listed?.annotations, { readOnlyHint: true, destructiveHint: false });
  const found = (await mcp.callTool({ name: 'get_pipeline', arguments: { id: pipelines[0]?.id } })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
  t.notOk(found.isError);
  t.match(found.structuredContent, { object: 'pipeline', id: pipelines[0]?.id, name: pipelines[0]?.name, stages: Array });
  const missing = (await mcp.callTool({ name: 'get_pipeline', arguments: { id: 'pipe_missing' } })) as { isError?: boolean; content?: { text?: string }[] };
  t.equal(missing.isError, true);
  t.match(missing.content?.[0]?.text, /^not_found: /);
});
