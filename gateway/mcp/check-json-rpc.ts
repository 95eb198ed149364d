import { ClientRequestSchema, ErrorCode, JSONRPCMessageSchema, RequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod/v4';

/**
 * Every request a client may send, by method, as the SDK defines them. The SDK parses a
 * request against its method's schema before the handler runs, so a malformed one
 * (`tools/call` or `logging/setLevel` without params, say) would come back as -32603
 * "internal error". These are checked first and refused as -32602 "invalid params", as
 * JSON-RPC expects. A method neither server offers (`resources/subscribe`) is still
 * answered by the SDK, -32601, when its params fit; when they do not, -32602 says so first.
 */
// A Map, not an object: the method is the client's text, and `constructor` must find nothing.
const REQUEST_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>(
  ClientRequestSchema.options.map((schema): [string, z.ZodType] => [schema.shape.method.value, schema]),
);

export interface JsonRpcRefusal {
  status: 200 | 400;
  body: { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } };
}

/** The members of a JSON-RPC request: the SDK's schema is strict, so any other is a malformed request. */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

const isRequestId = (id: unknown): id is string | number => typeof id === 'string' || Number.isSafeInteger(id);

/** JSON-RPC's "Invalid Request" (-32600): not a message at all. The SDK's transport would call it a parse error. */
function invalidRequest(id: string | number | null, why: string): JsonRpcRefusal {
  return { status: 400, body: { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${why}` } } };
}

/** What is wrong with a request's envelope (checked by hand: every tool call passes here), or null. */
function envelopeFault(request: Record<string, unknown>): string | null {
  if (request.jsonrpc !== '2.0') return 'jsonrpc must be "2.0".';
  if (!isRequestId(request.id)) return 'id must be a string or an integer.';
  if (typeof request.method !== 'string') return 'method must be a string.';
  for (const key in request) if (!REQUEST_MEMBERS.has(key)) return `unexpected member ${JSON.stringify(key)}.`;
  return null;
}

/**
 * What the tool servers refuse before the SDK sees a body: a batch (the 2025-06-18
 * protocol removed them, and one POST of many calls would count once against the rate
 * limit), JSON that is not a JSON-RPC message (-32600, where the SDK answers -32700 "parse
 * error" for valid JSON), and a request whose params do not fit its method. Checked before
 * the direct tools/call path too, so both paths accept the same requests. `undefined` is a
 * body that was not read as JSON (another Content-Type): the SDK's transport answers 415.
 */
export function checkJsonRpc(body: unknown): JsonRpcRefusal | null {
  if (body === undefined) return null;
  if (Array.isArray(body)) {
    const message = 'Batches are not supported: send one JSON-RPC message per request.';
    return { status: 400, body: { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message } } };
  }
  if (typeof body !== 'object' || body === null) return invalidRequest(null, 'a JSON-RPC message is an object.');
  if (!('method' in body) || !('id' in body)) {
    // A notification or a response: rare, so the SDK's own schema says whether it is one.
    return JSONRPCMessageSchema.safeParse(body).success ? null : invalidRequest(null, 'not a JSON-RPC request, notification or response.');
  }
  const request = body as Record<string, unknown>;
  const fault = envelopeFault(request);
  if (fault) return invalidRequest(isRequestId(request.id) ? request.id : null, fault);
  const method = request.method as string;
  // A method neither server has still gets its params checked as any request's are (an object, a valid _meta).
  const parsed = (REQUEST_SCHEMAS.get(method) ?? RequestSchema).safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'params';
  const message = `Invalid params for ${method}: ${where}: ${issue?.message ?? 'invalid'}`;
  return { status: 200, body: { jsonrpc: '2.0', id: request.id as string | number, error: { code: ErrorCode.InvalidParams, message } } };
}
