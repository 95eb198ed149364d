import type { addUser } from '../../../shared/contracts/identity.js';
import { Membership } from '../../../shared/db/entities/index.js';
import { newId } from '../../../shared/ids.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { ensureUser } from './ensure-user.js';
import { requireAdministrator } from './grantable-scopes.js';

/** `crm users add`: a user (new or existing) becomes a member with these permissions; running it again updates them. */
export const addUserHandler: OperationHandler<typeof addUser> = async ({ input, context, em }) => {
  await requireAdministrator(em, context);
  return em.transactional(async (tx) => {
    const { user, created } = await ensureUser(tx, input.email, input.password);
    const now = new Date();
    let membership = await tx.findOne(Membership, { userId: user.id });
    if (membership) {
      membership.permissions = input.permissions;
      membership.visibility = input.visibility;
      membership.updatedAt = now;
    } else {
      membership = tx.create(Membership, {
        id: newId('membership'),
        workspaceId: context.workspace_id,
        userId: user.id,
        permissions: input.permissions,
        visibility: input.visibility,
        createdAt: now,
        updatedAt: now,
      });
    }
    await tx.flush();
    return {
      object: 'member' as const,
      user_id: user.id,
      email: user.email,
      workspace_id: context.workspace_id,
      permissions: membership.permissions,
      visibility: membership.visibility,
      created_at: membership.createdAt.toISOString(),
      user_created: created,
    };
  });
};
