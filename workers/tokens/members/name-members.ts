import type { nameMembers } from '../../../shared/contracts/members.js';
import { ForbiddenError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { memberRecords } from './member-record.js';

/**
 * A signed-in member who may read records (the operation's scopes) and sees the whole workspace
 * learns who its members are, not their permissions; so does an administrator (tokens:write),
 * who may list the members anyway. One who sees only their own records has no one else to
 * name, and a token or an agent has no page to show names on.
 */
export const nameMembersHandler: OperationHandler<typeof nameMembers> = async ({ context, db }) => {
  const { principal } = context;
  const signedIn = principal.type === 'user' && principal.grant_id === undefined;
  if (!signedIn || (context.visibility !== 'all' && !principal.scopes.includes('tokens:write'))) {
    throw new ForbiddenError("Only a signed-in member who sees the whole workspace's records, or an administrator, may list its members' names.");
  }
  return { members: (await memberRecords(db)).map((m) => ({ user_id: m.user_id, email: m.email })) };
};
