import { CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod/v4';

/**
 * The requests the tool servers answer, by method. The SDK parses a request against
 * its method's schema before its own handlers run, so a malformed one (`tools/call`
 * without params, say) would come back as -32603 "internal error". These are checked
 * first and refused as -32602 "invalid params", as JSON-RPC expects.
 */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

export interface InvalidParamsResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/** The error response for the first request in a body (one message or a batch) whose params do not fit its method. */
export function invalidParamsIn(body: unknown): InvalidParamsResponse | null {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) continue;
    const schema = REQUEST_SCHEMAS[String(message.method)];
    const parsed = schema?.safeParse(message);
    if (!parsed || parsed.success) continue;
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'params';
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
    return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${String(message.method)}: ${where}: ${issue?.message ?? 'invalid'}` } };
  }
  return null;
}
