import type { McpServerKey } from '../contracts/oauth.js';
import { grantableScopes, type Permission } from './permissions.js';
import { grantsScope, type Scope } from './scopes.js';

/** The two tool servers, and the scopes an OAuth grant to each one can carry. */
export interface McpServerDefinition {
  key: McpServerKey;
  path: `/mcp/${McpServerKey}`;
  title: string;
  description: string;
  /** What a read-only grant carries (as far as the member's permissions allow). */
  readScopes: Scope[];
  /** What "Allow changes" adds. */
  writeScopes: Scope[];
}

export const MCP_SERVERS: Record<McpServerKey, McpServerDefinition> = {
  crm: {
    key: 'crm',
    path: '/mcp/crm',
    title: 'Workspace CRM',
    description: 'Contacts, deals, the workspace schema and its change history',
    readScopes: ['contacts:read', 'deals:read', 'schema:read', 'events:read'],
    writeScopes: ['contacts:write', 'deals:write'],
  },
  studio: {
    key: 'studio',
    path: '/mcp/studio',
    title: 'Workspace CRM Studio',
    description: 'Workspace design: custom fields, pipelines and stages',
    readScopes: ['studio:read'],
    writeScopes: ['studio:write'],
  },
};

/** The scopes a member may grant to a server in a workspace, split into reading and changing. */
export function serverScopesFor(server: McpServerKey, permissions: readonly Permission[]): { read: Scope[]; write: Scope[] } {
  const allowed = grantableScopes(permissions);
  const def = MCP_SERVERS[server];
  return { read: def.readScopes.filter((s) => allowed.includes(s)), write: def.writeScopes.filter((s) => allowed.includes(s)) };
}

/** Whether a credential can use a server at all (any of its read scopes, a write implying its read). */
export function canUseServer(server: McpServerKey, held: readonly Scope[]): boolean {
  const def = MCP_SERVERS[server];
  // schema:write needs no case of its own on the CRM server: it grants schema:read, one of its read scopes.
  return [...def.readScopes, ...def.writeScopes].some((s) => grantsScope(held, s));
}

/** A valid name for the environment variable that holds a token (and not a token pasted by mistake). */
export function isTokenEnvName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.startsWith('sk_');
}

/**
 * The `mcpServers` block a client needs for both servers, as Claude Code's `.mcp.json` takes
 * it: `type: "http"` (without it an entry is read as a local command and fails) and `${NAME}`
 * for an environment variable. Interactive clients (a browser sign-in) need only the URLs;
 * with `tokenEnv`, each server also gets an Authorization header that references the
 * variable, so the token itself is never written out.
 */
export function mcpClientConfig(baseUrl: string, tokenEnv?: string) {
  const base = baseUrl.replace(/\/+$/, '');
  const servers = Object.fromEntries(
    Object.values(MCP_SERVERS).map((s) => [s.key, { type: 'http', url: `${base}${s.path}`, ...(tokenEnv ? { headers: { Authorization: `Bearer \${${tokenEnv}}` } } : {}) }]),
  );
  return { mcpServers: servers };
}
