import { randomBytes } from 'node:crypto';
import type { inviteMember } from '../../../shared/contracts/members.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { ConflictError, NotFoundError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from '../grantable-scopes.js';
import { hashPassword } from '../passwords.js';
import { memberRecords } from './member-record.js';

/** 18 characters from an alphabet without look-alikes: easy to read out, about 100 bits. */
function temporaryPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(18)].map((b) => alphabet[b % alphabet.length]).join('');
}

/**
 * Adds a member by e-mail. A new user gets a temporary password, returned once (no mail
 * server needed) and stored only as a hash; an existing user keeps theirs.
 */
export const inviteMemberHandler: OperationHandler<typeof inviteMember> = async ({ input, context, em }) => {
  await requireAdministrator(em, context);
  return em.transactional(async (tx) => {
    const now = new Date();
    let user = await sqlOf(tx).selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
    let password: string | null = null;
    if (!user) {
      password = temporaryPassword();
      user = { id: newId('user') };
      await sqlOf(tx)
        .insertInto('users')
        .values({ id: user.id, email: input.email, name: null, password_hash: await hashPassword(password), password_change_required: true, created_at: now, updated_at: now })
        .execute();
    }
    const exists = await sqlOf(tx).selectFrom('memberships').select('id').where('workspace_id', '=', context.workspace_id).where('user_id', '=', user.id).executeTakeFirst();
    if (exists) throw new ConflictError(`${input.email} is already a member of this workspace.`, 'email');
    await sqlOf(tx)
      .insertInto('memberships')
      .values({ id: newId('membership'), workspace_id: context.workspace_id, user_id: user.id, permissions: input.permissions, visibility: input.visibility, created_at: now, updated_at: now })
      .execute();
    const [member] = await memberRecords(tx, context.workspace_id, user.id);
    if (!member) throw new NotFoundError('member', user.id);
    return { member, temporary_password: password };
  });
};
