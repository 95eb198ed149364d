import { encode } from '../../../shared/bus/codec.js';
import type { removeMember, updateMember } from '../../../shared/contracts/members.js';
import { GRANT_CHANGED_EVENT } from '../../../shared/contracts/oauth.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { ConflictError, NotFoundError } from '../../../shared/errors.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import type { OperationHandler, WorkerServices } from '../../runtime/worker-call.js';
import { requireAdministrator } from '../grantable-scopes.js';
import { memberRecords, otherAdministrators } from './member-record.js';

/** Tells the gateways that these grants changed, after the change commits. */
function announce(services: WorkerServices, grantIds: string[]): void {
  for (const id of grantIds) services.events.publish(`${services.busNamespace}.${GRANT_CHANGED_EVENT}`, encode({ grant_id: id }));
}

async function grantsOf(em: EntityManager, workspaceId: string, userId: string): Promise<string[]> {
  const rows = await sqlOf(em).selectFrom('oauth_grants').select('id').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
  return rows.map((r) => r.id);
}

/** New permissions apply to the member's connected agents within seconds, not at their next token refresh. */
export const updateMemberHandler: OperationHandler<typeof updateMember> = async ({ input, context, em, services }) => {
  await requireAdministrator(em, context);
  const { member, grantIds } = await em.transactional(async (tx) => {
    if (!input.permissions.includes('configuration') && (await otherAdministrators(tx, context.workspace_id, input.user_id)) === 0) {
      throw new ConflictError('The workspace needs at least one member with the Configuration permission.', 'permissions');
    }
    const updated = await sqlOf(tx)
      .updateTable('memberships')
      .set({ permissions: input.permissions, visibility: input.visibility, updated_at: new Date() })
      .where('workspace_id', '=', context.workspace_id)
      .where('user_id', '=', input.user_id)
      .returning('id')
      .executeTakeFirst();
    const [member] = updated ? await memberRecords(tx, context.workspace_id, input.user_id) : [];
    if (!member) throw new NotFoundError('member', input.user_id, 'user_id');
    return { member, grantIds: await grantsOf(tx, context.workspace_id, input.user_id) };
  });
  announce(services, grantIds);
  return member;
};

/**
 * Removes a member. Their OAuth grants in the workspace go with the membership (foreign
 * key), and gateways are told at once, so their connected agents stop within seconds;
 * records they owned become unowned.
 */
export const removeMemberHandler: OperationHandler<typeof removeMember> = async ({ input, context, em, services }) => {
  await requireAdministrator(em, context);
  const grantIds = await em.transactional(async (tx) => {
    if ((await otherAdministrators(tx, context.workspace_id, input.user_id)) === 0) {
      throw new ConflictError('The last member with the Configuration permission cannot be removed.', 'user_id');
    }
    const grants = await grantsOf(tx, context.workspace_id, input.user_id);
    const removed = await sqlOf(tx).deleteFrom('memberships').where('workspace_id', '=', context.workspace_id).where('user_id', '=', input.user_id).returning('id').executeTakeFirst();
    if (!removed) throw new NotFoundError('member', input.user_id, 'user_id');
    return grants;
  });
  announce(services, grantIds);
  return { removed: true };
};
