import type { listMembers } from '../../../shared/contracts/members.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from './grantable-scopes.js';
import { memberRecords } from './member-record.js';

export const listMembersHandler: OperationHandler<typeof listMembers> = async ({ context, em, db }) => {
  await requireAdministrator(em, context);
  return { members: await memberRecords(db) };
};
