import type { nameMembers } from '../../../shared/contracts/members.js';
import { ForbiddenError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { memberRecords } from './member-record.js';

/**
 * A signed-in member who may read records (the operation's scopes) and sees the whole workspace
 * learns who its members are, not their permissions. One who sees only their own records has
 * no one else to name, and a token or an agent has no page to show names on.
 */
export const nameMembersHandler: OperationHandler<typeof nameMembers> = async ({ context, db }) => {
  if (context.principal.type !== 'user' || context.principal.grant_id !== undefined || context.visibility !== 'all') {
    throw new ForbiddenError("Only a signed-in member who sees the whole workspace's records may list its members' names.");
  }
  return { members: (await memberRecords(db)).map((m) => ({ user_id: m.user_id, email: m.email })) };
};
