import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { WEBHOOK_NAME } from '../../gateway/openapi/webhooks-section.js';
import { V1_ENDPOINTS } from '../../gateway/routes/v1/endpoints.js';
import { EVENT_TYPES } from '../../shared/contracts/events.js';
import { WEBHOOK_TEST_EVENT_TYPE, WebhookEvent, WebhookHeaders } from '../../shared/contracts/webhook-payload.js';
import { launchBrowser } from '../helpers/browser.js';
import { client, request } from '../helpers/http.js';
import { checkResponseContract, ContractViolation } from '../helpers/openapi-contract.js';
import { useStack } from '../helpers/shared-stack.js';

interface Operation {
  operationId: string;
  summary: string;
  security: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses: Record<string, { description?: string; content?: Record<string, { schema: { $ref?: string } }> }>;
}
interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}
interface ObjectSchema {
  properties: Record<string, { enum?: string[] }>;
  required: string[];
}

const stack = await useStack(t);
const ws = await stack.bootstrap();
const res = await request<OpenApiDocument>(`${stack.baseUrl}/v1/openapi.json`);
const doc = res.body;

t.test('served without a token, valid OpenAPI 3.1', async (t) => {
  t.equal(res.status, 200);
  t.equal(doc.openapi, '3.1.0');
  t.equal(doc.servers[0]?.url, stack.baseUrl);
  const validator = new Validator();
  const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
  t.same(result.errors ?? [], [], 'no errors against the OpenAPI 3.1 schema');
  t.equal(result.valid, true);
});

t.test('webhooks: what a receiver gets is in the document (OpenAPI 3.1 webhooks), generated from the contract', async (t) => {
  // Before, the document described only the API: a receiver's types could not be generated from it.
  const receive = doc.webhooks?.[WEBHOOK_NAME]?.post;
  if (!receive) return t.fail('no webhooks section');
  t.same(Object.keys(doc.webhooks ?? {}), [WEBHOOK_NAME], 'one webhook: every type arrives alike, told apart by type');
  t.same(
    receive.parameters?.filter((p) => p.in === 'header').map((p) => [p.name, (p as { required?: boolean }).required]),
    Object.keys(WebhookHeaders.shape).map((name) => [name, true]),
    'the Standard Webhooks headers, each required',
  );
  t.same(receive.security, [], 'no API token: the signature is the credential');
  const body = (receive.requestBody as { content: Record<string, { schema: { $ref: string } }> }).content['application/json']?.schema.$ref;
  t.equal(body, '#/components/schemas/WebhookEvent');
  const schema = doc.components.schemas.WebhookEvent as ObjectSchema;
  t.same(Object.keys(schema.properties).sort(), Object.keys(WebhookEvent.shape).sort(), 'the fields of the contract schema');
  t.same(schema.required.sort(), Object.entries(WebhookEvent.shape).filter(([, s]) => !s.safeParse(undefined).success).map(([k]) => k).sort());
  t.same(schema.properties.type?.enum, [...EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE], 'every event type and the test event');
  t.notOk((doc.components.schemas.Event as ObjectSchema).properties.type?.enum?.includes(WEBHOOK_TEST_EVENT_TYPE), 'the history never holds a test event');
});

t.test('complete: exactly the endpoints the gateway mounts, each fully described', async (t) => {
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
  t.same(documented.sort(), V1_ENDPOINTS.map((e) => `${e.method.toUpperCase()} ${e.path}`).sort());
  t.ok(doc.components.securitySchemes.apiToken, 'the bearer token scheme');
  for (const e of V1_ENDPOINTS) {
    const op = doc.paths[e.path]?.[e.method] as Operation;
    const label = `${e.method.toUpperCase()} ${e.path}`;
    t.equal(op.operationId, e.operationId, label);
    t.ok(op.summary, `${label}: summary`);
    // Any one of several scopes: one security requirement per scope (OpenAPI reads the list as "or").
    const scopes = e.scope === null ? [] : typeof e.scope === 'string' ? [e.scope] : [...e.scope];
    t.same(op.security, scopes.length > 0 ? scopes.map((s) => ({ apiToken: [s] })) : [{ apiToken: [] }], `${label}: security names its scopes`);
    t.ok(op.responses[String(e.status)]?.content?.['application/json']?.schema, `${label}: success body`);
    for (const status of ['400', '401', '500', '503', ...(e.scope ? ['403'] : []), ...(e.params ? ['404'] : [])]) {
      t.equal(op.responses[status]?.content?.['application/json']?.schema.$ref, '#/components/schemas/Error', `${label}: ${status} documented`);
    }
    if (e.body) t.ok(op.requestBody, `${label}: request body`);
    for (const name of Object.keys((e.query as unknown as { shape?: Record<string, unknown> })?.shape ?? {})) {
      t.ok(op.parameters?.some((p) => p.in === 'query' && p.name === name), `${label}: query parameter ${name}`);
    }
    if (e.idempotent) {
      t.ok(op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'), `${label}: Idempotency-Key`);
      t.match(op.responses['409']?.description, /idempotency_key_reused/, `${label}: its 409 names idempotency_key_reused`);
    }
  }
});

t.test('DELETE of a contact or deal takes If-Match; only the archived contact answers with an ETag', async (t) => {
  for (const path of ['/v1/contacts/{id}', '/v1/deals/{id}']) {
    const op = doc.paths[path]?.delete as Operation;
    t.ok(op.parameters?.some((p) => p.in === 'header' && p.name === 'If-Match'), `DELETE ${path}: If-Match`);
  }
  const headersOf = (path: string) => Object.keys((doc.paths[path]?.delete?.responses['200'] as { headers?: Record<string, unknown> }).headers ?? {});
  t.ok(headersOf('/v1/contacts/{id}').includes('ETag'), 'the archived contact: ETag');
  t.notOk(headersOf('/v1/deals/{id}').includes('ETag'), 'a deleted deal: none');
});

t.test('the body parser refusals are documented on every operation, whatever its method', async (t) => {
  for (const e of V1_ENDPOINTS) {
    const op = doc.paths[e.path]?.[e.method] as Operation;
    const label = `${e.method.toUpperCase()} ${e.path}`;
    t.match(op.responses['400']?.description, /invalid_json/, `${label}: 400 names invalid_json`);
    t.ok(op.responses['413'], `${label}: 413 documented`);
    if (e.method === 'post' || e.method === 'patch') t.ok(op.responses['415'], `${label}: 415 documented`);
  }
  // The checked client (test/helpers/http.ts) refuses a status the document does not list.
  const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'webhooks:write']));
  const large = `{"archive":"${'x'.repeat(200_000)}"}`;
  const tooLarge = await api.send<{ error: { code: string } }>('DELETE', '/v1/contacts/con_x', { rawBody: large, headers: { 'content-type': 'application/json' } });
  t.equal(tooLarge.status, 413, 'an oversized body on a DELETE');
  t.equal(tooLarge.body.error.code, 'payload_too_large');
  const text = await api.send<{ error: { code: string } }>('POST', '/v1/webhook-endpoints/we_x/test', { rawBody: 'go', headers: { 'content-type': 'text/plain' } });
  t.equal(text.status, 415, 'a text body on a POST that takes none');
});

t.test('the document is public for every method: another than GET is a 405, not a 401', async (t) => {
  for (const method of ['POST', 'DELETE']) {
    const answer = await request<{ error: { code: string } }>(`${stack.baseUrl}/v1/openapi.json`, { method });
    t.equal(answer.status, 405, method);
    t.equal(answer.body.error.code, 'method_not_allowed', method);
    t.equal(answer.headers.get('allow'), 'GET, HEAD', method);
    t.equal(answer.headers.get('cache-control'), 'no-store', `${method}: an error is no-store, as every other /v1 error`);
  }
  t.equal((await fetch(`${stack.baseUrl}/v1/openapi.json`, { method: 'HEAD' })).status, 200, 'HEAD');
});

t.test('a day-or-instant filter is documented as the formats it takes, not as any string', async (t) => {
  for (const path of ['/v1/contacts', '/v1/deals', '/v1/events']) {
    for (const name of ['created_after', 'created_before']) {
      const param = doc.paths[path]?.get?.parameters?.find((p) => p.name === name) as { schema?: Record<string, unknown> } | undefined;
      t.same(param?.schema?.anyOf, [{ format: 'date' }, { format: 'date-time' }], `${path} ${name}`);
    }
  }
});

t.test('timestamps are documented as date-time, nullable ones too', async (t) => {
  const schemas = doc.components.schemas as Record<string, { properties: Record<string, { format?: string; anyOf?: { format?: string }[] }> }>;
  for (const [schema, field] of [['Contact', 'created_at'], ['Deal', 'closed_at'], ['Token', 'expires_at'], ['Event', 'created_at'], ['WebhookEndpoint', 'failing_since']] as const) {
    const property = schemas[schema]?.properties[field];
    const formats = [property?.format, ...(property?.anyOf ?? []).map((s) => s.format)].filter(Boolean);
    t.same(formats, ['date-time'], `${schema}.${field}`);
  }
});

t.test('the description gives the error envelope with every field of the Error schema', async (t) => {
  const info = (doc as unknown as { info: { description: string } }).info.description;
  const error = (doc.components.schemas.Error as { properties: { error: { properties: Record<string, unknown>; required: string[] } } }).properties.error;
  for (const name of Object.keys(error.properties)) {
    t.ok(info.includes(`"${name}${error.required.includes(name) ? '' : '?'}"`), name);
  }
});

t.test('the scope table says everything a scope allows', async (t) => {
  const info = (doc as unknown as { info: { description: string } }).info.description;
  // Notes take their record's scopes, and schema:write also changes the workspace's settings.
  t.match(info, /\| `contacts:read` \| Read contacts and their notes \|/);
  t.match(info, /\| `deals:write` \| [^|]*notes[^|]*\|/);
  t.match(info, /\| `schema:write` \| [^|]*time zone and default country \|/);
});

t.test('every documented operation is routed (never "No route")', async (t) => {
  const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:read']));
  for (const e of V1_ENDPOINTS) {
    const path = e.path.replace(/\{(\w+)\}/g, 'x_$1');
    const answer = await api.send<{ error?: { message: string } }>(e.method.toUpperCase(), path, { body: e.body ? {} : undefined });
    t.notMatch(answer.body.error?.message ?? '', /No route/, `${e.method.toUpperCase()} ${e.path} → ${answer.status}`);
  }
});

t.test('operationIds are unique, and each operation enforces exactly the scopes it documents', async (t) => {
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
  const ids = operations.map((o) => o.op.operationId);
  t.equal(new Set(ids).size, ids.length, 'no operationId is used twice');
  // A token holding one scope no REST operation asks for: every operation that documents a scope refuses it naming one of those.
  const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['studio:read']));
  for (const { path, method, op } of operations) {
    const documented = op.security.flatMap((requirement) => requirement.apiToken ?? []);
    const answer = await api.send<{ error?: { code: string; required_scope?: string } }>(method.toUpperCase(), path.replace(/\{(\w+)\}/g, 'x_$1'), {
      body: op.requestBody ? {} : undefined,
    });
    const label = `${method.toUpperCase()} ${path}`;
    if (documented.length === 0) {
      t.not(answer.status, 403, `${label}: any valid token`);
    } else {
      t.equal(answer.status, 403, `${label}: refused without ${documented.join(' or ')}`);
      t.ok(documented.includes(answer.body.error?.required_scope ?? ''), `${label}: names a documented scope (${answer.body.error?.required_scope})`);
    }
  }
});

t.test('Location is described as what it is: the object in the body (a new stage answers with its pipeline)', async (t) => {
  const created = doc.paths['/v1/pipelines/{id}/stages']?.post?.responses['201'] as { headers?: Record<string, { description?: string }> };
  t.match(created.headers?.Location?.description, /object in the body/);
  t.notMatch(created.headers?.Location?.description, /new object/);
});

t.test('the contract check itself catches a response that breaks the document', async (t) => {
  const url = new URL(`${stack.baseUrl}/v1/contacts/con_x`);
  const headers = new Headers({ 'request-id': 'req_x' });
  await t.rejects(checkResponseContract(url, 'GET', 200, headers, { object: 'contact', id: 'con_x' }), ContractViolation, 'missing fields');
  await t.rejects(checkResponseContract(url, 'GET', 418, headers, {}), ContractViolation, 'an undocumented status');
  await t.rejects(checkResponseContract(url, 'GET', 404, headers, { error: { code: 'no_such_code' } }), ContractViolation, 'an error off the schema');
  const body = { error: { type: 'invalid_request_error', code: 'not_found', message: 'No such contact: con_x.', request_id: 'req_x' } };
  const json = { 'request-id': 'req_x', 'content-type': 'application/json; charset=utf-8' };
  await t.resolves(checkResponseContract(url, 'GET', 404, new Headers({ ...json, 'cache-control': 'no-store' }), body), 'a response as documented');
  await t.rejects(checkResponseContract(url, 'GET', 404, new Headers(json), body), ContractViolation, 'no Cache-Control');
  await t.rejects(checkResponseContract(url, 'GET', 404, new Headers({ ...json, 'content-type': 'text/html', 'cache-control': 'no-store' }), body), ContractViolation, 'not JSON');
});

t.test('/docs renders the reference in Chromium, from local assets only', async (t) => {
  const page = await request(`${stack.baseUrl}/docs`);
  t.equal(page.status, 200);
  t.match(page.headers.get('content-security-policy'), /script-src 'self'/);
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const tab = await browser.newPage();
  const foreign: string[] = [];
  tab.on('request', (r) => {
    if (!r.url().startsWith(stack.baseUrl) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  await tab.goto(`${stack.baseUrl}/docs`);
  await tab.getByText('Workspace CRM API').first().waitFor();
  for (const summary of ['List contacts', 'Create a deal', 'Rename, reorder or restore a stage']) {
    t.ok(await tab.getByText(summary).first().isVisible(), `shows "${summary}"`);
  }
  t.same(foreign, [], 'nothing is loaded from outside the service');
});
