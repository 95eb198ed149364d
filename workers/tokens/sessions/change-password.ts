import type { changePassword } from '../../../shared/contracts/sessions.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { ValidationError, WrongPasswordError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashPassword, verifyPassword } from '../credentials/passwords.js';
import { sessionUser } from './session-user.js';
import { markAttemptSucceeded, reserveAttempt } from './sign-in-attempts.js';
import { startSession } from './start-session.js';

/**
 * Checks the current password, stores the new one, ends every other session of the user,
 * and replaces the current session with a new one: a session token seen before the change
 * (by whoever knew the old password) is worthless after it. The current-password check
 * counts as a sign-in attempt for the user's address from the client's IP, so a stolen
 * session cookie cannot guess the password faster than the sign-in form lets anyone.
 */
export const changePasswordHandler: UnscopedHandler<typeof changePassword> = async ({ input, em, services }) => {
  const session = await sessionUser(em, services.secrets.opaqueHashKey, input.session_token);
  const attemptId = await reserveAttempt(em, session.user.email, input.ip);
  const user = await sqlOf(em).selectFrom('users').select('password_hash').where('id', '=', session.user.id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(input.current_password, user.password_hash))) {
    throw new WrongPasswordError('That is not your current password.', 'current_password');
  }
  await markAttemptSucceeded(em, attemptId);
  if (input.new_password === input.current_password) {
    throw new ValidationError('must differ from the current password', 'new_password');
  }
  const passwordHash = await hashPassword(input.new_password);
  return em.transactional(async (tx) => {
    const now = new Date();
    await sqlOf(tx).updateTable('users').set({ password_hash: passwordHash, password_change_required: false, updated_at: now }).where('id', '=', session.user.id).execute();
    const ended = await sqlOf(tx)
      .updateTable('user_sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', session.user.id)
      .where('id', '<>', session.session_id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await sqlOf(tx).updateTable('user_sessions').set({ revoked_at: now }).where('id', '=', session.session_id).execute();
    const rotated = await startSession(tx, services.secrets.opaqueHashKey, session.user.id);
    return { changed: true as const, sessions_ended: Number(ended.numUpdatedRows), session_token: rotated.session_token };
  });
};
