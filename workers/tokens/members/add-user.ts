import { LockMode } from '@mikro-orm/core';
import type { addUser } from '../../../shared/contracts/identity.js';
import { Membership } from '../../../shared/db/entities/index.js';
import { ConflictError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { ensureUser } from './ensure-user.js';
import { requireAdministrator } from './grantable-scopes.js';
import { memberEventObject, memberRecordOf, otherAdministrators } from './member-record.js';

/** `crm users add`: a user (new or existing) becomes a member with these permissions; running it again updates them. */
export const addUserHandler: OperationHandler<typeof addUser> = async ({ input, context, em, db, events }) => {
  await requireAdministrator(em, context);
  const { user, created } = await ensureUser(em, input.email, input.password);
  const now = new Date();
  // Locked until the change commits: its event names what changed.
  let membership = await em.findOne(Membership, { userId: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const memberCreated = membership === null;
  const before = membership ? memberEventObject(db, memberRecordOf(user.email, membership)) : null;
  // Run again with fewer permissions it demotes, so the last administrator is kept as in the console.
  if (membership && !input.permissions.includes('configuration') && (await otherAdministrators(db, user.id)) === 0) {
    throw new ConflictError('The workspace needs at least one member with the Configuration permission.', 'permissions');
  }
  if (membership) {
    membership.permissions = input.permissions;
    membership.visibility = input.visibility;
    membership.updatedAt = now;
  } else {
    membership = em.create(Membership, {
      id: newId('membership'),
      workspaceId: context.workspace_id,
      userId: user.id,
      permissions: input.permissions,
      visibility: input.visibility,
      createdAt: now,
      updatedAt: now,
    });
  }
  await em.flush();
  const record = memberRecordOf(user.email, membership);
  const after = memberEventObject(db, record);
  await events.record(before ? { type: 'member.updated', object: after, previous: before } : { type: 'member.added', object: after });
  return { object: 'member' as const, workspace_id: db.workspaceId, ...record, user_created: created, member_created: memberCreated };
};
