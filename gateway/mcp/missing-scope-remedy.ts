import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import { grantsScope, type Scope } from '../../shared/auth/scopes.js';
import { whoAmI } from '../../shared/contracts/whoami.js';
import { MissingScopeError } from '../../shared/errors.js';
import type { ResolvedCredential } from '../request-state.js';
import type { ToolCall } from './tool.js';

/** How a browser sign-in gets `scope` on this server: granted at consent (`read`), with "Allow changes" (`write`), or not at all. */
function consentFor(scope: Scope, server: McpServerDefinition): 'read' | 'write' | null {
  if (server.readScopes.some((s) => grantsScope([s], scope))) return 'read';
  if (server.writeScopes.some((s) => grantsScope([s], scope))) return 'write';
  return null;
}

/**
 * Whether the user behind a browser sign-in could be granted `scope` (their membership allows
 * it), asked only when a call is refused; true for an API token, whose remedy is another token.
 */
export async function userMayBeGranted(scope: Scope, call: ToolCall): Promise<boolean> {
  if (call.credential.kind !== 'oauth') return true;
  // Only a better hint hangs on it: a tokens worker that cannot answer leaves the usual one, not an internal error in place of the refusal.
  return call.run(whoAmI, {}).then(
    (me) => grantsScope(me.grantable_scopes, scope),
    () => true,
  );
}

/** What to tell a user whose membership does not allow the scope: consenting again would not offer it. */
const notAllowed = (scope: Scope) => `The user's role in this workspace does not allow ${scope}, so consenting again would not offer it: a workspace administrator can make this change, or give the user a permission that allows it.`;

/**
 * A tool call without its scope, with the way to get it: for a browser sign-in, re-adding
 * the server and ticking "Allow changes" (a write scope) at consent, when the user's
 * membership allows the scope (`mayBeGranted`), else an administrator; for an API token, a
 * token that carries the scope.
 */
export function missingScopeError(tool: string, scope: Scope, server: McpServerDefinition, credential: ResolvedCredential, mayBeGranted = true): MissingScopeError {
  const isWrite = consentFor(scope, server) === 'write';
  const remedy =
    credential.kind === 'oauth'
      ? !mayBeGranted
        ? notAllowed(scope)
        : isWrite
        ? `To allow it, remove this server from the client and add it again (${server.path}), then tick "Allow changes" on the consent page; a client that supports scope step-up can instead re-authorize with the scope ${scope}. The user's workspace membership must allow ${scope}.`
        : `To allow it, remove this server from the client and add it again (${server.path}) and grant ${scope} on the consent page; the user's workspace membership must allow it.`
      : `Use an API token that holds ${scope}: a workspace administrator creates one in the console (Tokens) or with \`crm tokens create --workspace <name> --scopes ${scope}\`.`;
  return new MissingScopeError(scope, `${tool} needs the scope ${scope}, which this connection does not hold. ${remedy}`);
}

/** The one-line next step for an agent: what its user can do to get `scope` on this server, if anything. */
export function missingScopeHint(scope: Scope, credential: ResolvedCredential, server: McpServerDefinition, mayBeGranted = true): string {
  if (credential.kind !== 'oauth') return `Tell the user this needs an API token with ${scope}.`;
  if (!mayBeGranted) return `Tell the user their workspace role does not allow ${scope}: a workspace administrator can make the change or give them the permission.`;
  const consent = consentFor(scope, server);
  if (consent === 'read') return `Tell the user this needs ${scope}: re-add the server and grant it at consent.`;
  if (consent === 'write') return `Tell the user this needs ${scope}: re-add the server and tick "Allow changes" at consent.`;
  return `This server cannot be granted ${scope}: tell the user it takes an API token with ${scope} (or the console).`;
}
