import type { EntityManager } from '../../../shared/db/orm.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { RateLimitedError } from '../../../shared/errors.js';
import { lockUntilTransactionEnds } from '../../../shared/db/transaction-lock.js';

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
 * success does not reset it (a guesser who hits once must not get more). Every check of
 * a user's password goes through here (sign-in and the password change alike), so a
 * stolen session cookie buys no faster guessing than the sign-in form. The address is
 * counted as sign-in looks it up (trimmed, lower case), whatever form the caller has, so
 * `Ada@x` and `ada@x` share one count.
 */
export async function reserveAttempt(em: EntityManager, address: string, ip: string): Promise<number> {
  const email = address.trim().toLowerCase();
  return em.transactional(async (tx) => {
    const db = sqlOf(tx);
    await lockUntilTransactionEnds(db, `sign-in:${email}`);
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

/** The password was right: this attempt no longer counts as a failure. */
export async function markAttemptSucceeded(em: EntityManager, attemptId: number): Promise<void> {
  await sqlOf(em).updateTable('sign_in_attempts').set({ succeeded: true }).where('id', '=', attemptId).execute();
}
