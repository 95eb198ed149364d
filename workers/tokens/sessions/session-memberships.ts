import type { sessionMemberships } from '../../../shared/contracts/sessions.js';
import type { Permission } from '../../../shared/auth/permissions.js';
import { sqlOf } from '../../../shared/db/sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { sessionUser, touchSession } from './session-user.js';

/** Who is signed in and where they are a member: what every console page starts from. */
export const sessionMembershipsHandler: UnscopedHandler<typeof sessionMemberships> = async ({ input, em, services }) => {
  const session = await sessionUser(em, services.secrets.opaqueHashKey, input.session_token);
  await touchSession(em, session.session_id);
  const user = await sqlOf(em).selectFrom('users').select('password_change_required').where('id', '=', session.user.id).executeTakeFirstOrThrow();
  const rows = await sqlOf(em)
    .selectFrom('memberships as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['w.id', 'w.name', 'o.name as organization_name', 'm.permissions', 'm.visibility'])
    .where('m.user_id', '=', session.user.id)
    .orderBy('o.name')
    .orderBy('w.name')
    .execute();
  return {
    ...session,
    password_change_required: user.password_change_required,
    memberships: rows.map((r) => ({
      workspace_id: r.id,
      workspace_name: r.name,
      organization_name: r.organization_name,
      permissions: r.permissions as Permission[],
      visibility: r.visibility,
    })),
  };
};
