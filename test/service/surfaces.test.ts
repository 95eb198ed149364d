import express from 'express';
import { createServer } from 'node:http';
import t from 'tap';
import { MCP_SERVERS } from '../../shared/auth/mcp-servers.js';
import { scopesOf, scopesOn } from '../../shared/bus/operation.js';
import { REST_SCOPES } from '../../gateway/api/rest-scopes.js';
import { ERROR_TYPE } from '../../gateway/errors/error-type.js';
import { HTTP_STATUS } from '../../gateway/errors/http-status.js';
import { serverScopes, type ToolDefinition } from '../../gateway/mcp/tool.js';
import { CRM_TOOLS } from '../../gateway/mcp/tools/crm/index.js';
import { STUDIO_TOOLS } from '../../gateway/mcp/tools/studio/index.js';
import { buildOpenApiDocument } from '../../gateway/openapi/openapi-document.js';
import { V1_ENDPOINTS } from '../../gateway/routes/v1/endpoints.js';
import { ERROR_CODES } from '../../shared/errors.js';
import { listen } from '../../shared/listen.js';
import type { ApiTokenAuthenticator } from '../../gateway/auth/authenticate-api-token.js';
import type { GatewayDeps } from '../../gateway/deps.js';
import { mcpRoutes } from '../../gateway/mcp/mcp-routes.js';
import { requestId } from '../../gateway/middlewares/request-id.js';
import type { AccessTokenVerifier } from '../../gateway/oauth/access-token-verifier.js';

/** Every surface says what its operation says: built in-process from the same tables the gateway serves. */
interface DocumentedOperation {
  security: Record<string, string[]>[];
  description: string;
  parameters?: { name: string; in: string }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
const doc = buildOpenApiDocument(V1_ENDPOINTS, 'http://crm.test') as unknown as { paths: Record<string, Record<string, DocumentedOperation>> };

t.test('every endpoint: the OpenAPI scope, Idempotency-Key and headers are its operation’s', async (t) => {
  for (const e of V1_ENDPOINTS) {
    const label = `${e.method.toUpperCase()} ${e.path}`;
    const documented = doc.paths[e.path]?.[e.method] as DocumentedOperation;
    const scopes = scopesOn(e.op, REST_SCOPES);
    t.same(scopesOf({ scope: e.scope }), scopes, `${label}: the scopes REST accepts for ${e.op.worker}.${e.op.name}`);
    t.same(documented.security, scopes.length === 0 ? [{ apiToken: [] }] : scopes.map((s) => ({ apiToken: [s] })), `${label}: security`);
    for (const s of scopes) t.match(documented.description, `\`${s}\``, `${label}: description names ${s}`);
    t.equal(e.idempotent, e.op.idempotent, `${label}: idempotent as its operation`);
    const keyHeader = documented.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key') ?? false;
    t.equal(keyHeader, e.op.idempotent, `${label}: Idempotency-Key iff idempotent`);
    const headers = Object.keys(documented.responses[String(e.status)]?.headers ?? {});
    t.equal(headers.includes('Idempotent-Replayed'), e.op.idempotent, `${label}: Idempotent-Replayed iff idempotent`);
    t.equal(headers.includes('Location'), e.location !== undefined, `${label}: Location iff the endpoint sets it`);
    t.equal(e.method === 'get', e.op.readOnly, `${label}: GET iff the operation only reads`);
  }
});

t.test('POST and PATCH of contacts, deals, notes, pipelines, stages and custom fields take Idempotency-Key, as docs/api.md says', async (t) => {
  const documentedKeyed = /^\/v1\/(contacts|deals|notes|pipelines|custom-fields)(\/|$)/;
  const writes = V1_ENDPOINTS.filter((e) => (e.method === 'post' || e.method === 'patch') && documentedKeyed.test(e.path));
  t.ok(writes.some((e) => e.operationId === 'updateCustomField'), 'the stages and custom fields are among them');
  for (const e of writes) t.ok(e.idempotent, `${e.method.toUpperCase()} ${e.path}`);
  const header = doc.paths['/v1/pipelines/{id}/stages']?.post?.parameters?.find((p) => p.name === 'Idempotency-Key') as { schema?: Record<string, unknown> } | undefined;
  t.match(header?.schema, { type: 'string', minLength: 1, maxLength: 255, pattern: String.raw`^[\x21-\x7e]*$` }, 'the header documents the rule the gateway applies');
});

t.test('the stage endpoint documents the Location it sets', async (t) => {
  const headers = doc.paths['/v1/pipelines/{id}/stages']?.post?.responses['201']?.headers ?? {};
  t.ok('Location' in headers);
});

t.test('REST keeps studio:* scopes for the Studio server', async (t) => {
  t.notOk(REST_SCOPES.some((s) => s.startsWith('studio:')));
  const customFields = V1_ENDPOINTS.find((e) => e.operationId === 'createCustomField');
  t.equal(customFields?.scope, 'schema:write', 'schema:write, while its operation also allows studio:write');
});

const catalogues: [string, readonly ToolDefinition[]][] = [
  ['crm', CRM_TOOLS],
  ['studio', STUDIO_TOOLS],
];

/** Tools that create, yet some argument changes what exists (ToolSpec.destructiveArguments). */
const DESTRUCTIVE_ARGUMENTS = ['studio/create_pipeline'];

t.test('every tool: scopes, write flag and annotations are its operation’s, per server', async (t) => {
  for (const [key, tools] of catalogues) {
    const server = MCP_SERVERS[key as keyof typeof MCP_SERVERS];
    for (const tool of tools) {
      const label = `${key}/${tool.name}`;
      t.same(tool.scopes, scopesOf(tool.op).filter((s) => serverScopes(server).includes(s)), `${label}: scopes`);
      t.equal(tool.writes, !tool.op.readOnly, `${label}: listed only to writers iff it writes`);
      t.equal(tool.annotations.readOnlyHint, tool.op.readOnly, `${label}: readOnlyHint`);
      t.equal(tool.annotations.destructiveHint, tool.op.destructive || DESTRUCTIVE_ARGUMENTS.includes(label), `${label}: destructiveHint`);
      if (!tool.op.readOnly) t.equal(tool.annotations.idempotentHint, tool.op.destructive, `${label}: idempotentHint`);
      t.equal(tool.annotations.openWorldHint, false, `${label}: openWorldHint`);
    }
  }
});

t.test('tools keep the scopes each server accepted before', async (t) => {
  const scopesOfTool = (tools: readonly ToolDefinition[], name: string) => tools.find((x) => x.name === name)?.scopes;
  t.same(scopesOfTool(CRM_TOOLS, 'describe_schema'), ['schema:read', 'contacts:read', 'deals:read']);
  t.same(scopesOfTool(STUDIO_TOOLS, 'list_custom_fields'), ['studio:read']);
  t.same(scopesOfTool(STUDIO_TOOLS, 'create_stage'), ['studio:write']);
  t.same(scopesOfTool(CRM_TOOLS, 'whoami'), []);
});

t.test('every error code has an HTTP status and a REST error type', async (t) => {
  for (const code of ERROR_CODES) {
    t.type(HTTP_STATUS[code], 'number', `${code}: status`);
    t.type(ERROR_TYPE[code], 'string', `${code}: type`);
  }
});

t.test('/mcp/<unknown> is a 404 in the REST error envelope that names both servers', async (t) => {
  const base = { url: '' };
  const deps = { publicUrl: () => base.url, config: { allowedHosts: [], bodyLimit: '1mb' } } as unknown as GatewayDeps;
  const app = express();
  app.use(requestId);
  // Only the fallback answers here: no credential is ever checked.
  app.use(mcpRoutes(deps, {} as ApiTokenAuthenticator, {} as AccessTokenVerifier, (_req, _res, next) => next()));
  const server = createServer(app);
  base.url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
  t.teardown(() => void server.close());
  const res = await fetch(`${base.url}/mcp/crm-server`, { method: 'POST' });
  t.equal(res.status, 404);
  const body = (await res.json()) as { error: { type: string; code: string; message: string; request_id: string } };
  t.match(body.error, { type: 'invalid_request_error', code: 'not_found', request_id: res.headers.get('request-id') });
  t.match(body.error.message, `${base.url}/mcp/crm`);
  t.match(body.error.message, `${base.url}/mcp/studio`);
});
