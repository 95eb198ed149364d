import { MCP_SERVERS } from '../../../shared/auth/mcp-servers.js';
import { grantsScope, type Scope } from '../../../shared/auth/scopes.js';
import type { McpServerKey } from '../../../shared/contracts/oauth.js';

type ServerScopes = { read: Scope[]; write: Scope[] };

/**
 * What the membership allows on the server, narrowed to the authorization request's `scope`
 * (least privilege): a requested write keeps its read too, since the first grant to a client
 * is read-only and the write comes at a later consent. Values the server does not offer are
 * ignored (RFC 6749 §3.3 lets the server grant less than asked); a request naming none of
 * them, or no `scope`, narrows nothing, as before.
 */
export function narrowedToRequest(server: McpServerKey, allowed: ServerScopes, requested: readonly string[]): ServerScopes {
  const def = MCP_SERVERS[server];
  const offered: readonly string[] = [...def.readScopes, ...def.writeScopes];
  const asked = requested.filter((value) => offered.includes(value)) as Scope[];
  if (asked.length === 0) return allowed;
  return { read: allowed.read.filter((s) => grantsScope(asked, s)), write: allowed.write.filter((s) => asked.includes(s)) };
}
