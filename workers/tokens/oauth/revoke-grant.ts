import { encode } from '../../../shared/bus/codec.js';
import { eventSubjectOf } from '../../../shared/bus/bus-event.js';
import { GRANT_CHANGED_EVENT } from '../../../shared/contracts/broadcasts.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import type { EventRecorder } from '../../runtime/events/event-recorder.js';
import type { WorkerServices } from '../../runtime/worker-call.js';
import { agentEventObjects } from './agent-event-object.js';

/** Tells the gateways that a grant changed, so they drop its cached status; send it after the change commits. */
export function announceGrantChanged(services: WorkerServices, grantId: string): void {
  services.broadcasts.publish(eventSubjectOf(services.busNamespace, GRANT_CHANGED_EVENT), encode({ grant_id: grantId }));
}

/**
 * Revokes a grant, with its `agent.revoked` event: its refresh tokens stop working at
 * once, and gateways stop honouring its access tokens once the caller, after the commit,
 * announces the change (their status cache covers a lost announcement within seconds).
 * Revoking twice keeps the first reason and time, and stores no second event.
 */
export async function revokeGrant(db: WorkspaceSql, events: EventRecorder, grantId: string, reason: string, at = new Date()): Promise<boolean> {
  const revoked = await db
    .updateTable('oauth_grants')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', grantId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!revoked) return false;
  const [agent] = await agentEventObjects(db, [grantId]);
  if (agent) await events.record({ type: 'agent.revoked', object: agent, previous: { ...agent, revoked_at: null } });
  return true;
}
