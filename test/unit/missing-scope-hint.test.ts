import t from 'tap';
import { MCP_SERVERS } from '../../shared/auth/mcp-servers.js';
import type { ResolvedCredential } from '../../gateway/request-state.js';
import { missingScopeHint } from '../../gateway/mcp/missing-scope-remedy.js';

/** The next step a tool error suggests follows what the server can be granted at consent, and how the connection signed in. */
const credential = (kind: ResolvedCredential['kind']): ResolvedCredential => ({
  kind,
  workspaceId: 'ws_test',
  scopes: [],
  context: { workspace_id: 'ws_test', principal: { type: 'token', id: 'tok_test', scopes: [] }, visibility: 'all' },
});

t.test('an OAuth connection: a read scope is granted at consent, a write scope with "Allow changes", another scope not at all', async (t) => {
  const oauth = credential('oauth');
  t.match(missingScopeHint('deals:read', oauth, MCP_SERVERS.crm), /grant it at consent/);
  t.notMatch(missingScopeHint('deals:read', oauth, MCP_SERVERS.crm), /Allow changes/);
  t.match(missingScopeHint('deals:write', oauth, MCP_SERVERS.crm), /Allow changes/);
  t.match(missingScopeHint('tokens:write', oauth, MCP_SERVERS.crm), /cannot be granted tokens:write: .*API token/);
});

t.test('an API token: a token with the scope', async (t) => {
  t.equal(missingScopeHint('deals:read', credential('api_token'), MCP_SERVERS.crm), 'Tell the user this needs an API token with deals:read.');
});
