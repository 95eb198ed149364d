import { encode } from '../../../shared/bus/codec.js';
import { eventSubjectOf } from '../../../shared/bus/bus-event.js';
import { GRANT_CHANGED_EVENT } from '../../../shared/contracts/broadcasts.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import type { WorkerServices } from '../../runtime/worker-call.js';

/** Tells the gateways that a grant changed, so they drop its cached status; send it after the change commits. */
export function announceGrantChanged(services: WorkerServices, grantId: string): void {
  services.broadcasts.publish(eventSubjectOf(services.busNamespace, GRANT_CHANGED_EVENT), encode({ grant_id: grantId }));
}

/**
 * Revokes a grant: its refresh tokens stop working at once, and gateways stop honouring
 * its access tokens as soon as the event reaches them (their status cache covers a lost
 * event within seconds). Revoking twice keeps the first reason and time.
 */
export async function revokeGrant(db: WorkspaceSql, services: WorkerServices, grantId: string, reason: string, at = new Date()): Promise<boolean> {
  const revoked = await db
    .updateTable('oauth_grants')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', grantId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  announceGrantChanged(services, grantId);
  return revoked !== undefined;
}
