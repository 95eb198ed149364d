import { ClientRequestSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
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

/**
 * What the tool servers refuse before the SDK sees a body: a batch (the 2025-06-18
 * protocol removed them, and one POST of many calls would count once against the rate
 * limit), and a request whose params do not fit its method.
 */
export function checkJsonRpc(body: unknown): JsonRpcRefusal | null {
  if (Array.isArray(body)) {
    const message = 'Batches are not supported: send one JSON-RPC message per request.';
    return { status: 400, body: { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message } } };
  }
  if (typeof body !== 'object' || body === null || !('method' in body) || !('id' in body)) return null;
  const parsed = REQUEST_SCHEMAS.get(String(body.method))?.safeParse(body);
  if (!parsed || parsed.success) return null;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'params';
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  const message = `Invalid params for ${String(body.method)}: ${where}: ${issue?.message ?? 'invalid'}`;
  return { status: 200, body: { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message } } };
}
