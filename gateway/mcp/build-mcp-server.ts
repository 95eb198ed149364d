import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import { PACKAGE_VERSION } from '../../shared/package-version.js';
import { installCompletionHandler } from './completion-handler.js';
import type { McpFeatures } from './mcp-features.js';
import { installPromptHandlers } from './prompt-handlers.js';
import { installResourceHandlers } from './resource-handlers.js';
import type { ToolCall, ToolDefinition } from './tool.js';
import { installToolHandlers } from './tool-handlers.js';

/** One validator for every request: the SDK would otherwise build a new Ajv (and its keywords) per server. */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * A fresh MCP server for one stateless request (the low-level SDK server: every handler is
 * ours, so tool arguments are read strictly, schemas are the portable ones made once, and a
 * tool the connection may not use answers with the scope and the way to get it).
 */
export function buildMcpServer(
  server: McpServerDefinition,
  tools: readonly ToolDefinition[],
  features: McpFeatures,
  call: ToolCall,
  options: { validateReplies: boolean; instructions: string },
): Server {
  const capabilities: ServerCapabilities = {
    tools: {},
    // Logging: the level is accepted; a stateless request has no stream to send log messages on.
    logging: {},
    ...(features.resources.length > 0 ? { resources: {} } : {}),
    ...(features.prompts.length > 0 ? { prompts: {} } : {}),
    ...(features.prompts.length > 0 || features.resources.length > 0 ? { completions: {} } : {}),
  };
  const mcp = new Server({ name: `workspace-crm-${server.key}`, title: server.title, version: PACKAGE_VERSION }, { capabilities, instructions: options.instructions, jsonSchemaValidator: JSON_SCHEMA_VALIDATOR });
  installToolHandlers(mcp, server, tools, call, options);
  if (capabilities.resources) installResourceHandlers(mcp, features.resources, call);
  if (capabilities.prompts) installPromptHandlers(mcp, features.prompts, call);
  if (capabilities.completions) installCompletionHandler(mcp, features, call);
  return mcp;
}
