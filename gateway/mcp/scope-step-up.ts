import type { Request } from 'express';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import { grantsScope } from '../../shared/auth/scopes.js';
import type { BusClient } from '../../shared/bus/bus-client.js';
import { whoAmI } from '../../shared/contracts/whoami.js';
import { MissingScopeError } from '../../shared/errors.js';
import { serverScopes, type ToolDefinition } from './tool.js';
import { scopeMissingFor } from './tool-handlers.js';

/** The protocol revision that brought the step-up flow ("scope challenge") for clients. */
const STEP_UP_SINCE = '2025-11-25';

/**
 * MCP 2025-11-25 step-up: a tool call over a browser sign-in that lacks the tool's scope,
 * from a client speaking that revision, whose user could grant the scope, is answered with
 * HTTP 403 insufficient_scope naming the scopes to ask for (those held plus the missing
 * one), so the client re-authorizes and the consent page offers "Allow changes". Any other
 * such call gets the tool error with its remedy (tool-handlers.ts): older clients, API
 * tokens, and users whose permissions do not allow the scope.
 */
export async function stepUpChallenge(
  req: Request,
  server: McpServerDefinition,
  tools: readonly ToolDefinition[],
  bus: BusClient,
): Promise<{ error: MissingScopeError; scope: string } | null> {
  const credential = req.credential;
  const body = req.body as { id?: unknown; method?: unknown; params?: { name?: unknown } } | undefined;
  // A tools/call without an id is a notification: nothing runs (the transport answers 202), so there is nothing to step up for.
  if (!credential || credential.kind !== 'oauth' || body?.method !== 'tools/call' || body.id === undefined) return null;
  const version = req.get('mcp-protocol-version');
  // An unsupported version is the transport's 400, not a challenge ("2099-01-01" and "zzz" sort after STEP_UP_SINCE).
  if (!version || version < STEP_UP_SINCE || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  const tool = tools.find((t) => t.name === body.params?.name);
  const missing = tool ? scopeMissingFor(tool, credential) : null;
  if (!tool || !missing) return null;
  const who = await bus.call(whoAmI, {}, { context: credential.context, requestId: req.requestId });
  if (!grantsScope(who.result.grantable_scopes, missing)) return null;
  // What the grant holds on this server, and the missing scope: the client asks for all of it again.
  const wanted = new Set([...credential.scopes.filter((s) => serverScopes(server).includes(s)), missing]);
  return {
    error: new MissingScopeError(missing, `${tool.name} needs the scope ${missing}; re-authorize with it (the consent page offers "Allow changes").`),
    scope: [...wanted].join(' '),
  };
}
