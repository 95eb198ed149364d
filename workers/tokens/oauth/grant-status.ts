import type { grantStatus } from '../../../shared/contracts/oauth.js';
import { pgTimestamp, sqlOf } from '../../../shared/db/sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';

const LAST_USED_RESOLUTION_MS = 60_000;

/** Whether a grant still stands (gateways ask, and cache the answer for a few seconds); notes its use. */
export const grantStatusHandler: UnscopedHandler<typeof grantStatus> = async ({ input, em }) => {
  const grant = await sqlOf(em).selectFrom('oauth_grants').select(['revoked_at', 'last_used_at']).where('id', '=', input.grant_id).executeTakeFirst();
  if (!grant || grant.revoked_at) return { active: false };
  const now = new Date();
  if (!grant.last_used_at || now.getTime() - pgTimestamp(grant.last_used_at).getTime() > LAST_USED_RESOLUTION_MS) {
    await sqlOf(em).updateTable('oauth_grants').set({ last_used_at: now }).where('id', '=', input.grant_id).execute();
  }
  return { active: true };
};
