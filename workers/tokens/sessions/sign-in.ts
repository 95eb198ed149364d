import type { signIn } from '../../../shared/contracts/sessions.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { sql } from 'kysely';
import { sqlOf } from '../../../shared/db/sql.js';
import { RateLimitedError, UnknownEmailError, WrongPasswordError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashPassword, needsRehash, verifyPassword } from '../credentials/passwords.js';
import { startSession } from './start-session.js';

/**
 * Failed attempts allowed in the window: for one address from one IP, from one IP, and
 * for one address from anywhere. The last is a slower backstop, so that guessing from one
 * place cannot lock a user out who signs in from another.
 */
export const SIGN_IN_LIMITS = { windowMinutes: 15, perEmailAndIp: 5, perIp: 30, perEmail: 100 };

/**
 * Counts the failures and records this attempt as a failure before the password is
 * checked, in one step: parallel guesses for one address queue on a lock held until the
 * record commits, so each sees those before it and at most the limit reach the password
 * check. Counted in Postgres, the limit holds across every gateway and tokens worker; a
 * success does not reset it (a guesser who hits once must not get more).
 */
async function reserveAttempt(em: EntityManager, email: string, ip: string): Promise<number> {
  return em.transactional(async (tx) => {
    const db = sqlOf(tx);
    await sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in:${email}`}, 0))`.execute(db);
    const since = new Date(Date.now() - SIGN_IN_LIMITS.windowMinutes * 60_000).toISOString();
    const row = await db
      .selectFrom('sign_in_attempts')
      .select((eb) => [
        eb.fn.countAll<string>().filterWhere((f) => f.and([f('email', '=', email), f('ip', '=', ip)])).as('by_email_and_ip'),
        eb.fn.countAll<string>().filterWhere('ip', '=', ip).as('by_ip'),
        eb.fn.countAll<string>().filterWhere('email', '=', email).as('by_email'),
      ])
      .where('succeeded', '=', false)
      .where('created_at', '>', since)
      .where((eb) => eb.or([eb('email', '=', email), eb('ip', '=', ip)]))
      .executeTakeFirstOrThrow();
    if (
      Number(row.by_email_and_ip) >= SIGN_IN_LIMITS.perEmailAndIp ||
      Number(row.by_ip) >= SIGN_IN_LIMITS.perIp ||
      Number(row.by_email) >= SIGN_IN_LIMITS.perEmail
    ) {
      throw new RateLimitedError(SIGN_IN_LIMITS.windowMinutes * 60);
    }
    const attempt = await db.insertInto('sign_in_attempts').values({ email, ip, succeeded: false, created_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    return Number(attempt.id);
  });
}

/** Signs a user in with e-mail and password; errors say which of the two is wrong. */
export const signInHandler: UnscopedHandler<typeof signIn> = async ({ input, em, services }) => {
  const email = input.email.trim().toLowerCase();
  const attemptId = await reserveAttempt(em, email, input.ip);
  const user = await sqlOf(em).selectFrom('users').select(['id', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst();
  if (!user) throw new UnknownEmailError(email);
  if (!(await verifyPassword(input.password, user.password_hash))) {
    throw new WrongPasswordError(`That is not the password of ${email}.`, 'password');
  }
  await sqlOf(em).updateTable('sign_in_attempts').set({ succeeded: true }).where('id', '=', attemptId).execute();
  if (needsRehash(user.password_hash)) {
    // Only now is the password in hand: an older, cheaper hash is replaced, unless it changed meanwhile.
    const upgraded = await hashPassword(input.password);
    await sqlOf(em).updateTable('users').set({ password_hash: upgraded }).where('id', '=', user.id).where('password_hash', '=', user.password_hash).execute();
  }

  // A new session on every sign-in: a session id fixed before signing in is never reused.
  const session = await startSession(em, services.secrets.opaqueHashKey, user.id);
  return { ...session, user: { id: user.id, email: user.email } };
};
