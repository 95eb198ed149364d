import { serverScopesFor } from '../../../shared/auth/mcp-servers.js';
import type { Permission } from '../../../shared/auth/permissions.js';
import type { grantStatus } from '../../../shared/contracts/oauth.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { lastUseDue } from '../last-use-due.js';

/**
 * Whether a grant still stands, and what it allows now: its scopes as far as the
 * member's current permissions go, and their current visibility. Gateways ask and cache
 * the answer for a few seconds, so a changed membership bites without waiting for the
 * access token to expire. Notes the grant's use.
 */
export const grantStatusHandler: UnscopedHandler<typeof grantStatus> = async ({ input, em }) => {
  const grant = await crossWorkspaceSql(em, 'gateways ask by grant id; the grant tells the workspace')
    .selectFrom('oauth_grants as g')
    .innerJoin('memberships as m', (join) => join.onRef('m.workspace_id', '=', 'g.workspace_id').onRef('m.user_id', '=', 'g.user_id'))
    .select(['g.workspace_id', 'g.revoked_at', 'g.last_used_at', 'g.server', 'g.scopes', 'm.permissions', 'm.visibility'])
    .where('g.id', '=', input.grant_id)
    .executeTakeFirst();
  if (!grant || grant.revoked_at) return { active: false };
  const now = new Date();
  if (lastUseDue(grant.last_used_at, now)) {
    // A revocation that held the row while this waited has committed (and been broadcast) by
    // now: answering from the read above would let the gateway cache "active" after it.
    const noted = await workspaceSql(em, grant.workspace_id)
      .updateTable('oauth_grants')
      .set({ last_used_at: now })
      .where('id', '=', input.grant_id)
      .returning('revoked_at')
      .executeTakeFirst();
    if (!noted || noted.revoked_at) return { active: false };
  }
  const allowed = serverScopesFor(grant.server, grant.permissions as Permission[]);
  const scopes = grant.scopes.filter((s) => allowed.read.includes(s) || allowed.write.includes(s));
  return { active: true, scopes, visibility: grant.visibility };
};
