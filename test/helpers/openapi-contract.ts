import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import formats, { type FormatsPlugin } from 'ajv-formats';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { ROOT } from './environment.js';

/**
 * Every response the test suite receives from /v1 is checked against the OpenAPI
 * document that the gateway serves, and the operation it exercised is recorded for the
 * coverage check that runs after the suite (test/contract/check-coverage.ts).
 */
export const CONTRACT_LOG_DIR = path.join(ROOT, '.tap', 'contract');

// ajv-formats is CommonJS: under NodeNext its function is the default export's `default`.
const addFormats = (formats as unknown as { default?: FormatsPlugin }).default ?? (formats as unknown as FormatsPlugin);

const backends = new Map<string, Promise<OpenAPIBackend>>();

async function backendFor(origin: string): Promise<OpenAPIBackend> {
  let backend = backends.get(origin);
  if (!backend) {
    backend = (async () => {
      const res = await fetch(`${origin}/v1/openapi.json`);
      if (!res.ok) throw new Error(`GET ${origin}/v1/openapi.json: ${res.status}`);
      // The document itself is checked against the OpenAPI 3.1 meta-schema in openapi.test.ts; here only responses.
      // quick: skips openapi-backend's own check of the document, which knows only OpenAPI 3.0.
      // Formats are checked too (a created_at must be a date-time), and known: without them, Ajv
      // logged "unknown format … ignored" for every timestamp of every response.
      const api = new OpenAPIBackend({ definition: (await res.json()) as Document, quick: true, customizeAjv: (ajv) => addFormats(ajv).addFormat('idn-email', true) });
      await api.init();
      return api;
    })();
    backends.set(origin, backend);
  }
  return backend;
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

export async function checkResponseContract(url: URL, method: string, status: number, headers: Headers, body: unknown): Promise<void> {
  if (!url.pathname.startsWith('/v1/') || url.pathname === '/v1/openapi.json') return;
  const api = await backendFor(url.origin);
  const operation = api.matchOperation({
    method: method.toLowerCase(),
    path: url.pathname,
    headers: Object.fromEntries(headers.entries()),
    query: Object.fromEntries(url.searchParams.entries()),
  });
  if (!operation) return; // an undocumented path: the 404 of an unknown route
  const documented = Object.keys(operation.responses ?? {});
  if (!documented.includes(String(status))) {
    throw new ContractViolation(`${method} ${url.pathname} answered ${status}, which ${operation.operationId} does not document (${documented.join(', ')})`);
  }
  const result = api.validateResponse(body, operation, status);
  if (result.errors?.length) {
    throw new ContractViolation(`${method} ${url.pathname} ${status} does not match ${operation.operationId}: ${JSON.stringify(result.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
  if (!headers.get('request-id')) throw new ContractViolation(`${method} ${url.pathname} ${status} has no Request-Id header`);
  // Every documented response is JSON in UTF-8 and is one workspace's data, never cached (both are response headers of the document).
  if (headers.get('content-type')?.toLowerCase() !== 'application/json; charset=utf-8') {
    throw new ContractViolation(`${method} ${url.pathname} ${status} has Content-Type ${headers.get('content-type')}, not application/json; charset=utf-8`);
  }
  if (headers.get('cache-control') !== 'no-store') throw new ContractViolation(`${method} ${url.pathname} ${status} has Cache-Control ${headers.get('cache-control')}, not no-store`);
  mkdirSync(CONTRACT_LOG_DIR, { recursive: true });
  appendFileSync(path.join(CONTRACT_LOG_DIR, `${process.pid}.jsonl`), `${JSON.stringify({ operationId: operation.operationId, status })}\n`);
}
