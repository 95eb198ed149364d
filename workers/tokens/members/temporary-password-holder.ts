import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';

/** Where an existing user who still holds an invitation's temporary password is a member, seen from the inviting workspace. */
export type TemporaryPasswordHolder = 'member elsewhere in the organization' | 'member of another organization' | 'member nowhere';

/**
 * Whoever invited a user first knows their temporary password until they choose their
 * own, and could sign in as them: in any workspace another organization adds them to
 * afterwards too. So an invitation finding such a user asks where they are a member.
 */
export async function temporaryPasswordHolder(em: EntityManager, db: WorkspaceSql, userId: string): Promise<TemporaryPasswordHolder> {
  const rows = await crossWorkspaceSql(em, "an invited user's memberships in every workspace, to know who knows their temporary password")
    .selectFrom('memberships as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .select((eb) =>
      eb.fn
        .countAll<string>()
        .filterWhere('w.organization_id', '<>', eb.selectFrom('workspaces').select('organization_id').where('id', '=', db.workspaceId))
        .as('elsewhere'),
    )
    .where('m.user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(rows.elsewhere) > 0) return 'member of another organization';
  return Number(rows.n) > 0 ? 'member elsewhere in the organization' : 'member nowhere';
}
