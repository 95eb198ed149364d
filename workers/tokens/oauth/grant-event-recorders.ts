import type { CallContext } from '../../../shared/contracts/call-context.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { EventRecorder } from '../../runtime/events/event-recorder.js';

/**
 * Recorders for the OAuth flow's own writes, which come with no workspace context: the
 * actor is built from who acted. The scopes are left empty: they only name the actor here.
 */

/** A signed-in user's decision (the consent): a console user. */
export function userEvents(db: WorkspaceSql, userId: string, requestId: string): EventRecorder {
  const context: CallContext = { workspace_id: db.workspaceId, principal: { type: 'user', id: userId, scopes: [] }, visibility: 'all' };
  return new EventRecorder(db, context, requestId);
}

/** A client's request about its own grant (RFC 7009 revocation): the agent, acting for its user. */
export function agentEvents(db: WorkspaceSql, grant: { id: string; userId: string }, requestId: string): EventRecorder {
  const context: CallContext = { workspace_id: db.workspaceId, principal: { type: 'user', id: grant.userId, scopes: [], grant_id: grant.id }, visibility: 'all' };
  return new EventRecorder(db, context, requestId);
}

/** What the service does on its own (a grant revoked because its code or refresh token was replayed). */
export function systemEvents(db: WorkspaceSql, requestId: string): EventRecorder {
  return EventRecorder.bySystem(db, 'crm service (OAuth replay protection)', requestId);
}
