import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Test } from 'tap';

/** A tool call's result as tests read it. */
export type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text?: string }[] };

/**
 * The MCP SDK's own client on one tool server with a bearer credential, closed when `t` ends.
 * `fetch`: the transport's, to watch the HTTP exchanges (e.g. the Request-Id answered).
 */
export async function connectMcp(t: Test, baseUrl: string, server: 'crm' | 'studio', bearer: string, options: { fetch?: FetchLike } = {}): Promise<Client> {
  const client = new Client({ name: `test-${t.name || 'client'}`.slice(0, 60), version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp/${server}`), { fetch: options.fetch, requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }),
  );
  t.teardown(() => client.close());
  return client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The structured result of a call that must succeed (a failed assertion shows the error). */
export function okResult(t: Test, r: ToolResult): Record<string, unknown> {
  t.notOk(r.isError, r.isError ? JSON.stringify(r.structuredContent ?? r.content) : 'ok');
  return r.structuredContent ?? {};
}
