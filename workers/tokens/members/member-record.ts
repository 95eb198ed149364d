import type { Permission } from '../../../shared/auth/permissions.js';
import type { MemberEventObject, MemberRecord } from '../../../shared/contracts/members.js';
import type { Membership } from '../../../shared/db/entities/index.js';
import { isoTimestamp } from '../../../shared/db/sql.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { lockUntilTransactionEnds } from '../../../shared/db/transaction-lock.js';

/** Members of a workspace with their e-mail addresses; one user's when `userId` is given. */
export async function memberRecords(db: WorkspaceSql, userId?: string): Promise<MemberRecord[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'm.permissions', 'm.visibility', 'm.created_at'])
    .$if(userId !== undefined, (q) => q.where('m.user_id', '=', userId!))
    .orderBy('u.email')
    .execute();
  return rows.map((r) => ({ user_id: r.id, email: r.email, permissions: r.permissions as Permission[], visibility: r.visibility, created_at: isoTimestamp(r.created_at) }));
}

/** A membership entity as a member record. */
export function memberRecordOf(email: string, m: Membership): MemberRecord {
  return { user_id: m.userId, email, permissions: m.permissions, visibility: m.visibility, created_at: m.createdAt.toISOString() };
}

/** A member of the workspace as its events carry it. */
export function memberEventObject(db: WorkspaceSql, record: MemberRecord): MemberEventObject {
  return { object: 'member', id: record.user_id, workspace_id: db.workspaceId, ...record };
}

/**
 * An administrator must remain: the last one cannot be removed or lose Configuration.
 * Counted under a lock per workspace held until the change commits: locking only the member
 * changed let two administrators be demoted (or removed) at once, each counting the other.
 */
export async function otherAdministrators(db: WorkspaceSql, exceptUserId: string): Promise<number> {
  await lockUntilTransactionEnds(db.global, `crm administrators:${db.workspaceId}`);
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '<>', exceptUserId)
    .where((eb) => eb(eb.val('configuration'), '=', eb.fn.any('permissions')))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
