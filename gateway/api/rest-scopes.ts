import { MCP_SERVERS } from '../../shared/auth/mcp-servers.js';
import { SCOPES, type Scope } from '../../shared/auth/scopes.js';

const studio = MCP_SERVERS.studio;

/** REST accepts every scope but the Studio tool server's own: studio:* opens only that server. */
export const REST_SCOPES: readonly Scope[] = SCOPES.filter((s) => !studio.readScopes.includes(s) && !studio.writeScopes.includes(s));
