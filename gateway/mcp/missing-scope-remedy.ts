import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import { grantsScope, type Scope } from '../../shared/auth/scopes.js';
import { MissingScopeError } from '../../shared/errors.js';
import type { ResolvedCredential } from '../request-state.js';

/** How a browser sign-in gets `scope` on this server: granted at consent (`read`), with "Allow changes" (`write`), or not at all. */
function consentFor(scope: Scope, server: McpServerDefinition): 'read' | 'write' | null {
  if (server.readScopes.some((s) => grantsScope([s], scope))) return 'read';
  if (server.writeScopes.some((s) => grantsScope([s], scope))) return 'write';
  return null;
}

/**
 * A tool call without its scope, with the way to get it: for a browser sign-in, re-adding
 * the server and ticking "Allow changes" (a write scope) at consent; for an API token, a
 * token that carries the scope.
 */
export function missingScopeError(tool: string, scope: Scope, server: McpServerDefinition, credential: ResolvedCredential): MissingScopeError {
  const isWrite = consentFor(scope, server) === 'write';
  const remedy =
    credential.kind === 'oauth'
      ? isWrite
        ? `To allow it, remove this server from the client and add it again (${server.path}), then tick "Allow changes" on the consent page; a client that supports scope step-up can instead re-authorize with the scope ${scope}. The user's workspace membership must allow ${scope}.`
        : `To allow it, remove this server from the client and add it again (${server.path}) and grant ${scope} on the consent page; the user's workspace membership must allow it.`
      : `Use an API token that holds ${scope}: a workspace administrator creates one in the console (Tokens) or with \`crm tokens create --workspace <name> --scopes ${scope}\`.`;
  return new MissingScopeError(scope, `${tool} needs the scope ${scope}, which this connection does not hold. ${remedy}`);
}

/** The one-line next step for an agent: what its user can do to get `scope` on this server, if anything. */
export function missingScopeHint(scope: Scope, credential: ResolvedCredential, server: McpServerDefinition): string {
  if (credential.kind !== 'oauth') return `Tell the user this needs an API token with ${scope}.`;
  const consent = consentFor(scope, server);
  if (consent === 'read') return `Tell the user this needs ${scope}: re-add the server and grant it at consent.`;
  if (consent === 'write') return `Tell the user this needs ${scope}: re-add the server and tick "Allow changes" at consent.`;
  return `This server cannot be granted ${scope}: tell the user it takes an API token with ${scope} (or the console).`;
}
