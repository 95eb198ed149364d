import type { nameMembers } from '../../../shared/contracts/members.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { memberRecords } from './member-record.js';

/** Any member who may read records (the operation's scopes) learns who the workspace's members are, not their permissions. */
export const nameMembersHandler: OperationHandler<typeof nameMembers> = async ({ db }) => {
  return { members: (await memberRecords(db)).map((m) => ({ user_id: m.user_id, email: m.email })) };
};
