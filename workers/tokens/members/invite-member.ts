import type { inviteMember, MemberRecord } from '../../../shared/contracts/members.js';
import { ConflictError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from './grantable-scopes.js';
import { memberEventObject } from './member-record.js';
import { hashPassword } from '../credentials/passwords.js';
import { temporaryPassword } from '../credentials/temporary-password.js';

/**
 * Adds a member by e-mail. A new user gets a temporary password, returned once (no mail
 * server needed) and stored only as a hash; an existing user keeps theirs.
 */
export const inviteMemberHandler: OperationHandler<typeof inviteMember> = async ({ input, context, em, db, events }) => {
  await requireAdministrator(em, context);
  // Hashed before the writes (scrypt is slow), though only a new user needs it: invitations are rare.
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  const now = new Date();
  // Two invitations of one new address at once: the second insert waits for the first and
  // then does nothing, and the user the first made is found (without a temporary password).
  const inserted = await db.global
    .insertInto('users')
    .values({ id: newId('user'), email: input.email, name: null, password_hash: passwordHash, password_change_required: true, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('email').doNothing())
    .returning('id')
    .executeTakeFirst();
  const userId = inserted?.id ?? (await db.global.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirstOrThrow()).id;
  // Likewise for the membership: a second invitation is told, not answered with a unique violation.
  const added = await db
    .insertInto('memberships')
    .values({ id: newId('membership'), workspace_id: db.workspaceId, user_id: userId, permissions: input.permissions, visibility: input.visibility, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!added) throw new ConflictError(`${input.email} is already a member of this workspace.`, 'email');
  // The row just inserted, as memberRecords would read it back (the user was found by this e-mail; timestamptz(3) keeps `now` exactly).
  const member: MemberRecord = { user_id: userId, email: input.email, permissions: input.permissions, visibility: input.visibility, created_at: now.toISOString() };
  await events.record({ type: 'member.added', object: memberEventObject(db, member) });
  return { member, temporary_password: inserted ? password : null };
};
