import { z } from 'zod';
import { Scope, SCOPES } from '../auth/scopes.js';
import { Visibility } from '../auth/permissions.js';

/**
 * Who is calling, as the gateway resolved it from the credential. It travels in every
 * workspace-scoped bus message; workers never take a workspace from client input.
 */
export const Principal = z.discriminatedUnion('type', [
  /** An API token (REST, or a tool server with a bearer token). */
  z.object({ type: z.literal('token'), id: z.string(), scopes: z.array(Scope) }),
  /** A signed-in user: an OAuth grant on a tool server, or a console session. */
  z.object({ type: z.literal('user'), id: z.string(), scopes: z.array(Scope), grant_id: z.string().optional() }),
  /** The `crm` command line, run by an operator with database access. */
  z.object({ type: z.literal('operator'), scopes: z.array(Scope) }),
]);
export type Principal = z.infer<typeof Principal>;

export const CallContext = z.object({
  workspace_id: z.string(),
  principal: Principal,
  /** `owned`: reads, counts and filters see only what the principal's user owns. */
  visibility: Visibility,
});
export type CallContext = z.infer<typeof CallContext>;

/** The command line's context in a workspace: every scope, every record (its calls are signed). */
export function operatorContext(workspaceId: string): CallContext {
  return { workspace_id: workspaceId, principal: { type: 'operator', scopes: [...SCOPES] }, visibility: 'all' };
}

/** The id recorded as `created_by` for things this principal creates. */
export function actorId(principal: Principal): string | null {
  return principal.type === 'operator' ? null : principal.id;
}
