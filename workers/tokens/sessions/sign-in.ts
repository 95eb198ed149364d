import type { signIn } from '../../../shared/contracts/sessions.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { UnknownEmailError, WrongPasswordError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashPassword, needsRehash, verifyPassword } from '../credentials/passwords.js';
import { markAttemptSucceeded, reserveAttempt } from './sign-in-attempts.js';
import { startSession } from './start-session.js';

/** Signs a user in with e-mail and password; errors say which of the two is wrong. */
export const signInHandler: UnscopedHandler<typeof signIn> = async ({ input, em, services }) => {
  const email = input.email.trim().toLowerCase();
  const attemptId = await reserveAttempt(em, email, input.ip);
  const user = await sqlOf(em).selectFrom('users').select(['id', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst();
  if (!user) throw new UnknownEmailError(email);
  if (!(await verifyPassword(input.password, user.password_hash))) {
    throw new WrongPasswordError(`That is not the password of ${email}.`, 'password');
  }
  await markAttemptSucceeded(em, attemptId);
  let checkedHash = user.password_hash;
  if (needsRehash(user.password_hash)) {
    // Only now is the password in hand: an older, cheaper hash is replaced, unless it changed meanwhile.
    const upgraded = await hashPassword(input.password);
    const replaced = await sqlOf(em).updateTable('users').set({ password_hash: upgraded }).where('id', '=', user.id).where('password_hash', '=', user.password_hash).executeTakeFirst();
    if (replaced.numUpdatedRows > 0n) checkedHash = upgraded;
  }

  // A new session on every sign-in: a session id fixed before signing in is never reused.
  const session = await em.transactional(async (tx) => {
    // The password checked must still be the user's: a change committed during the check
    // (which ends every session) would otherwise be outlived by this one. Shared-locked, so
    // a change in progress is waited for.
    const current = await sqlOf(tx).selectFrom('users').select('password_hash').where('id', '=', user.id).forShare().executeTakeFirst();
    if (current?.password_hash !== checkedHash) {
      throw new WrongPasswordError(`That is not the password of ${email}.`, 'password');
    }
    return startSession(tx, services.secrets.opaqueHashKey, user.id);
  });
  return { ...session, user: { id: user.id, email: user.email } };
};
