import type { sessionMemberships } from '../../../shared/contracts/sessions.js';
import type { Permission } from '../../../shared/auth/permissions.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { sessionUser, touchSession } from './session-user.js';

/** Who is signed in and where they are a member: what every console page starts from. */
export const sessionMembershipsHandler: UnscopedHandler<typeof sessionMemberships> = async ({ input, em, services }) => {
  const session = await sessionUser(em, services.secrets.opaqueHashKey, input.session_token);
  await touchSession(em, session);
  const rows = await crossWorkspaceSql(em, "a user's memberships in every workspace, for the console's workspace switcher")
    .selectFrom('memberships as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['w.id', 'w.name', 'o.name as organization_name', 'w.time_zone', 'm.permissions', 'm.visibility'])
    .where('m.user_id', '=', session.user.id)
    .orderBy('o.name')
    .orderBy('w.name')
    .execute();
  return {
    session_id: session.session_id,
    user: session.user,
    password_change_required: session.password_change_required,
    memberships: rows.map((r) => ({
      workspace_id: r.id,
      workspace_name: r.name,
      organization_name: r.organization_name,
      time_zone: r.time_zone,
      permissions: r.permissions as Permission[],
      visibility: r.visibility,
    })),
  };
};
