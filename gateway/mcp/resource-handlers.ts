import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, McpError, ReadResourceRequestSchema, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { grantsScope, type Scope } from '../../shared/auth/scopes.js';
import { CrmError } from '../../shared/errors.js';
import type { ResourceDefinition } from './mcp-features.js';
import { refuseCursor } from './single-page-list.js';
import type { ToolCall } from './tool.js';
import { hasVariables, matchUriTemplate } from './uri-template.js';

const JSON_TYPE = 'application/json';

export function mayRead(scopes: readonly Scope[], call: ToolCall): boolean {
  return scopes.length === 0 || scopes.some((s) => grantsScope(call.credential.scopes, s));
}

/** A domain error while reading: a JSON-RPC error in words (not found is the protocol's -32002). */
export function asMcpError(error: unknown): unknown {
  if (!(error instanceof CrmError)) return error;
  const code = error.code === 'not_found' ? -32002 : error.code === 'validation_failed' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, error.message);
}

/** resources/list, resources/templates/list and resources/read over the server's resource definitions. */
export function installResourceHandlers(mcp: Server, resources: readonly ResourceDefinition[], call: ToolCall): void {
  const readable = () => resources.filter((r) => mayRead(r.scopes, call));

  mcp.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    refuseCursor(request.params);
    const listed: Resource[] = [];
    for (const r of readable()) {
      if (!hasVariables(r.uriTemplate)) listed.push({ uri: r.uriTemplate, name: r.name, title: r.title, description: r.description, mimeType: JSON_TYPE });
      if (r.list) for (const item of await r.list(call)) listed.push({ ...item, mimeType: JSON_TYPE });
    }
    return { resources: listed };
  });

  mcp.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
    refuseCursor(request.params);
    return {
      resourceTemplates: readable()
        .filter((r) => hasVariables(r.uriTemplate))
        .map((r) => ({ uriTemplate: r.uriTemplate, name: r.name, title: r.title, description: r.description, mimeType: JSON_TYPE })),
    };
  });

  mcp.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    for (const r of resources) {
      const variables = matchUriTemplate(r.uriTemplate, uri);
      if (!variables) continue;
      if (!mayRead(r.scopes, call)) throw new McpError(ErrorCode.InvalidParams, `Reading ${uri} needs one of the scopes ${r.scopes.join(', ')}, which this connection does not hold.`);
      try {
        const value = await r.read(variables, call);
        return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(value) }] };
      } catch (error) {
        throw asMcpError(error);
      }
    }
    throw new McpError(-32002, `Resource not found: ${uri}. Resources: ${readable().map((r) => r.uriTemplate).join(', ')}.`);
  });
}
