import type { inviteMember, MemberRecord } from '../../../shared/contracts/members.js';
import { ConflictError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from './grantable-scopes.js';
import { memberEventObject } from './member-record.js';
import { hashPassword } from '../credentials/passwords.js';
import { temporaryPassword } from '../credentials/temporary-password.js';
import { temporaryPasswordHolder } from './temporary-password-holder.js';

/**
 * Adds a member by e-mail. A new user gets a temporary password, returned once (no mail
 * server needed) and stored only as a hash; an existing user keeps theirs. An existing user
 * who has not chosen a password yet is still in the hands of whoever knows the temporary one:
 * another organization cannot add them (its workspace would be open to that person), and a
 * user left a member nowhere gets a new one, for this invitation, and loses their sessions.
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
  // An existing user, locked until the membership commits: a password change meanwhile waits, then sees it.
  const user = inserted
    ? { id: inserted.id, temporary: false }
    : await db.global.selectFrom('users').select(['id', 'password_change_required as temporary']).where('email', '=', input.email).forUpdate().executeTakeFirstOrThrow();
  const userId = user.id;
  const holder = user.temporary ? await temporaryPasswordHolder(em, db, userId) : null;
  // Likewise for the membership: a second invitation is told, not answered with a unique violation.
  const added = await db
    .insertInto('memberships')
    .values({ id: newId('membership'), workspace_id: db.workspaceId, user_id: userId, permissions: input.permissions, visibility: input.visibility, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!added) throw new ConflictError(`${input.email} is already a member of this workspace.`, 'email');
  if (holder === 'member of another organization') {
    throw new ConflictError(
      `${input.email} has not chosen a password yet. Invite them once they have signed in and chosen their own.`,
      'email',
    );
  }
  if (holder === 'member nowhere') {
    await db.global.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
    await db.global.updateTable('user_sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }
  // The row just inserted, as memberRecords would read it back (the user was found by this e-mail; timestamptz(3) keeps `now` exactly).
  const member: MemberRecord = { user_id: userId, email: input.email, permissions: input.permissions, visibility: input.visibility, created_at: now.toISOString() };
  await events.record({ type: 'member.added', object: memberEventObject(db, member) });
  return {
    member,
    temporary_password: inserted || holder === 'member nowhere' ? password : null,
    first_sign_in_pending: holder === 'member elsewhere in the organization',
  };
};
