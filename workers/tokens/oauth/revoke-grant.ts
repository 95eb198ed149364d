import { encode } from '../../../shared/bus/codec.js';
import { GRANT_CHANGED_EVENT } from '../../../shared/contracts/oauth.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { sqlOf } from '../../../shared/db/sql.js';
import type { WorkerServices } from '../../runtime/worker-call.js';

/**
 * Revokes a grant: its refresh tokens stop working at once, and gateways stop honouring
 * its access tokens as soon as the event reaches them (their status cache covers a lost
 * event within seconds). Revoking twice keeps the first reason.
 */
export async function revokeGrant(em: EntityManager, services: WorkerServices, grantId: string, reason: string): Promise<boolean> {
  const revoked = await sqlOf(em)
    .updateTable('oauth_grants')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('id', '=', grantId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  services.events.publish(`${services.busNamespace}.${GRANT_CHANGED_EVENT}`, encode({ grant_id: grantId }));
  return revoked !== undefined;
}
