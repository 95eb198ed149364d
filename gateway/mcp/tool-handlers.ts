import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import { grantsScope, missingScope } from '../../shared/auth/scopes.js';
import { CrmError, InternalError } from '../../shared/errors.js';
import type { ResolvedCredential } from '../request-state.js';
import { missingScopeError, missingScopeHint } from './missing-scope-remedy.js';
import type { ToolCall, ToolDefinition } from './tool.js';
import { parseToolArguments } from './tool-arguments.js';
import { toolErrorResult } from './tool-error-result.js';

/** Whether a connection sees a tool: read tools always, tools that change data only if it may. */
export function listsTool(tool: ToolDefinition, credential: ResolvedCredential): boolean {
  return !tool.writes || tool.scopes.some((s) => grantsScope(credential.scopes, s));
}

/** The scope a connection lacks for a tool, or null. */
export function scopeMissingFor(tool: ToolDefinition, credential: ResolvedCredential) {
  return missingScope(credential.scopes, tool.scopes);
}

function listing(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputJsonSchema,
    outputSchema: tool.outputJsonSchema,
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/**
 * tools/list and tools/call, with our own schemas and our own argument checks (the SDK's
 * McpServer would strip unknown arguments and answer "not found" for a tool the connection
 * may not see). Worker errors come back as tool errors with a next step, never as stacks.
 */
export function installToolHandlers(mcp: Server, server: McpServerDefinition, tools: readonly ToolDefinition[], call: ToolCall, options: { validateReplies: boolean }): void {
  const byName = new Map(tools.map((t) => [t.name, t]));

  mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.filter((t) => listsTool(t, call.credential)).map(listing) }));

  mcp.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const names = tools.filter((t) => listsTool(t, call.credential)).map((t) => t.name);
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}. The tools of this server: ${names.join(', ')}.`);
    }
    const missing = scopeMissingFor(tool, call.credential);
    if (missing) return toolErrorResult(missingScopeError(tool.name, missing, server, call.credential), missingScopeHint(missing, call.credential));
    try {
      const args = parseToolArguments(tool.inputSchema, request.params.arguments);
      const result = await tool.run(args, call);
      if (options.validateReplies && !tool.outputSchema.safeParse(result).success) {
        throw new InternalError(`The result of ${tool.name} does not match its output schema (request ${call.requestId}).`);
      }
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    } catch (error) {
      if (error instanceof CrmError) {
        return toolErrorResult(error, error.code === 'internal' ? `Call again once; if it fails again, give the user the request id ${call.requestId}.` : undefined);
      }
      throw error;
    }
  });
}
