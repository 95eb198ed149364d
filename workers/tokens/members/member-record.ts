import type { Permission } from '../../../shared/auth/permissions.js';
import type { MemberRecord } from '../../../shared/contracts/members.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { isoTimestamp, sqlOf } from '../../../shared/db/sql.js';

/** Members of a workspace with their e-mail addresses; one user's when `userId` is given. */
export async function memberRecords(em: EntityManager, workspaceId: string, userId?: string): Promise<MemberRecord[]> {
  const rows = await sqlOf(em)
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'm.permissions', 'm.visibility', 'm.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .$if(userId !== undefined, (q) => q.where('m.user_id', '=', userId!))
    .orderBy('u.email')
    .execute();
  return rows.map((r) => ({ user_id: r.id, email: r.email, permissions: r.permissions as Permission[], visibility: r.visibility, created_at: isoTimestamp(r.created_at) }));
}

/** An administrator must remain: the last one cannot be removed or lose Configuration. */
export async function otherAdministrators(em: EntityManager, workspaceId: string, exceptUserId: string): Promise<number> {
  const row = await sqlOf(em)
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '<>', exceptUserId)
    .where((eb) => eb(eb.val('configuration'), '=', eb.fn.any('permissions')))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
