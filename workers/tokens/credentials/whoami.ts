import type { whoAmI } from '../../../shared/contracts/whoami.js';
import { grantableScopes, type Permission } from '../../../shared/auth/permissions.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { ForbiddenError, NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';

/** Who the connection acts as, in which workspace, with what. */
export const whoAmIHandler: OperationHandler<typeof whoAmI> = async ({ context, em, db }) => {
  const { principal } = context;
  const place = await sqlOf(em)
    .selectFrom('workspaces as w')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['w.id', 'w.name', 'w.time_zone', 'o.id as organization_id', 'o.name as organization_name'])
    .where('w.id', '=', context.workspace_id)
    .executeTakeFirstOrThrow();
  let authorizedBy;
  let grantable = principal.scopes;
  if (principal.type === 'token') {
    const token = await db.selectFrom('api_tokens').select(['id', 'name']).where('id', '=', principal.id).executeTakeFirst();
    if (!token) throw new NotFoundError('token', principal.id);
    authorizedBy = { type: 'token' as const, id: token.id, name: token.name };
  } else if (principal.type === 'user') {
    const user = await sqlOf(em).selectFrom('users').select(['id', 'email']).where('id', '=', principal.id).executeTakeFirstOrThrow();
    authorizedBy = { type: 'user' as const, id: user.id, email: user.email };
    const membership = await db.selectFrom('memberships').select('permissions').where('user_id', '=', principal.id).executeTakeFirst();
    grantable = membership ? grantableScopes(membership.permissions as Permission[]) : [];
  } else {
    throw new ForbiddenError('whoami describes a token or a signed-in user.');
  }
  return {
    workspace: { id: place.id, name: place.name },
    organization: { id: place.organization_id, name: place.organization_name },
    authorized_by: authorizedBy,
    scopes: principal.scopes,
    credential_kind: principal.type === 'token' ? ('api_token' as const) : ('oauth' as const),
    reads_company_wide: context.visibility === 'all',
    time_zone: place.time_zone,
    grantable_scopes: grantable,
  };
};
