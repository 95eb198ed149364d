import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { PromptDefinition } from './mcp-features.js';
import { asMcpError, mayRead } from './resource-handlers.js';
import { refuseCursor } from './single-page-list.js';
import type { ToolCall } from './tool.js';

/** prompts/list and prompts/get: each prompt one user message that starts the task. */
export function installPromptHandlers(mcp: Server, prompts: readonly PromptDefinition[], call: ToolCall): void {
  const usable = () => prompts.filter((p) => mayRead(p.scopes, call));

  mcp.setRequestHandler(ListPromptsRequestSchema, (request) => {
    refuseCursor(request.params);
    return {
      prompts: usable().map((p) => ({
        name: p.name,
        title: p.title,
        description: p.description,
        arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
      })),
    };
  });

  mcp.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = prompts.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${request.params.name}. Prompts: ${usable().map((p) => p.name).join(', ')}.`);
    // Unlisted for want of a scope, but there: say which, as reading a resource does, not "unknown".
    if (!mayRead(prompt.scopes, call)) throw new McpError(ErrorCode.InvalidParams, `${prompt.name} needs the scope ${prompt.scopes.join(' or ')}, which this connection does not hold.`);
    const given = request.params.arguments ?? {};
    const known = new Set(prompt.arguments.map((a) => a.name));
    const unknown = Object.keys(given).filter((k) => !known.has(k));
    if (unknown.length > 0) throw new McpError(ErrorCode.InvalidParams, `Unknown argument ${unknown.join(', ')}. Arguments of ${prompt.name}: ${[...known].join(', ')}.`);
    // Values trimmed, and a blank one is not given: "   " as the contact would be written into the prompt as who to call.
    const args = Object.fromEntries(Object.entries(given).flatMap(([k, v]) => (v.trim() === '' ? [] : [[k, v.trim()]])));
    const missing = prompt.arguments.filter((a) => a.required && args[a.name] === undefined);
    if (missing.length > 0) throw new McpError(ErrorCode.InvalidParams, `Missing argument ${missing.map((a) => `${a.name} (${a.description})`).join(', ')}${missing.some((a) => a.name in given) ? '; a blank value counts as missing' : ''}.`);
    try {
      const text = await prompt.text(args, call);
      return { description: prompt.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
    } catch (error) {
      throw asMcpError(error);
    }
  });
}
