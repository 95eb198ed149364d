import type { removeMember, updateMember } from '../../../shared/contracts/members.js';
import { ConflictError, NotFoundError } from '../../../shared/errors.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from './grantable-scopes.js';
import { announceGrantChanged } from '../oauth/revoke-grant.js';
import { memberRecords, otherAdministrators } from './member-record.js';

async function grantsOf(db: WorkspaceSql, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('oauth_grants').select('id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.id);
}

/** New permissions apply to the member's connected agents within seconds, not at their next token refresh. */
export const updateMemberHandler: OperationHandler<typeof updateMember> = async ({ input, context, em, db, services }) => {
  await requireAdministrator(em, context);
  const { member, grantIds } = await em.transactional(async (tx) => {
    const txDb = db.within(tx);
    if (!input.permissions.includes('configuration') && (await otherAdministrators(txDb, input.user_id)) === 0) {
      throw new ConflictError('The workspace needs at least one member with the Configuration permission.', 'permissions');
    }
    const updated = await txDb
      .updateTable('memberships')
      .set({ permissions: input.permissions, visibility: input.visibility, updated_at: new Date() })
      .where('user_id', '=', input.user_id)
      .returning('id')
      .executeTakeFirst();
    const [member] = updated ? await memberRecords(txDb, input.user_id) : [];
    if (!member) throw new NotFoundError('member', input.user_id, 'user_id');
    return { member, grantIds: await grantsOf(txDb, input.user_id) };
  });
  for (const id of grantIds) announceGrantChanged(services, id);
  return member;
};

/**
 * Removes a member. Their OAuth grants in the workspace go with the membership (foreign
 * key), and gateways are told at once, so their connected agents stop within seconds;
 * records they owned become unowned.
 */
export const removeMemberHandler: OperationHandler<typeof removeMember> = async ({ input, context, em, db, services }) => {
  await requireAdministrator(em, context);
  const grantIds = await em.transactional(async (tx) => {
    const txDb = db.within(tx);
    if ((await otherAdministrators(txDb, input.user_id)) === 0) {
      throw new ConflictError('The last member with the Configuration permission cannot be removed.', 'user_id');
    }
    const grants = await grantsOf(txDb, input.user_id);
    const removed = await txDb.deleteFrom('memberships').where('user_id', '=', input.user_id).returning('id').executeTakeFirst();
    if (!removed) throw new NotFoundError('member', input.user_id, 'user_id');
    return grants;
  });
  for (const id of grantIds) announceGrantChanged(services, id);
  return { removed: true };
};
