import type { Request, Response } from 'express';
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import type { ToolCall, ToolDefinition } from './tool.js';
import { toolCaller } from './tool-handlers.js';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A `tools/call` answered without building the SDK's server and transport for it: the same
 * handler (toolCaller) and the same JSON answer, for the one request the tool servers serve
 * most. A stateless server keeps nothing between requests, so a tool call needs neither;
 * building both (and the transport's conversion of the request to a web Request and back)
 * cost about as much gateway CPU as the rest of the call. Only a request that the SDK's
 * transport would take as it is comes this way (both Accept types, a JSON body, a supported
 * protocol version, one well-formed call of a tool this server has); anything else, and every
 * other method, goes to the SDK, which answers it or says what is wrong. Returns whether it
 * answered.
 */
export async function answerToolCallDirectly(
  req: Request,
  res: Response,
  server: McpServerDefinition,
  tools: readonly ToolDefinition[],
  call: ToolCall,
  options: { validateReplies: boolean },
): Promise<boolean> {
  const body: unknown = req.body;
  if (!isObject(body) || body.method !== 'tools/call' || body.jsonrpc !== '2.0') return false;
  const { id, params } = body;
  if (!(typeof id === 'string' || Number.isSafeInteger(id))) return false;
  if (!isObject(params) || typeof params.name !== 'string' || 'task' in params) return false;
  if (params.arguments !== undefined && !isObject(params.arguments)) return false;
  const accept = req.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if ((req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() !== 'application/json') return false;
  const version = req.get('mcp-protocol-version');
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return false;
  const caller = toolCaller(server, tools, call, options);
  if (!caller.has(params.name)) return false;

  let answer: string;
  try {
    // The result as JSON text: a page's rows spliced in as the worker wrote them.
    answer = `"result":${await caller.encoded({ name: params.name, arguments: params.arguments })}`;
  } catch (error) {
    // As the SDK's server answers a handler that throws.
    const e = error as { code?: unknown; message?: unknown; data?: unknown };
    const payload = {
      code: Number.isSafeInteger(e.code) ? e.code : ErrorCode.InternalError,
      message: typeof e.message === 'string' ? e.message : 'Internal error',
      ...(e.data !== undefined ? { data: e.data } : {}),
    };
    answer = `"error":${JSON.stringify(payload)}`;
  }
  res.status(200).type('application/json').send(`{${answer},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
  return true;
}
