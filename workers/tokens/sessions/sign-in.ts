import type { signIn } from '../../../shared/contracts/sessions.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { RateLimitedError, UnknownEmailError, WrongPasswordError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashOpaqueSecret, newOpaqueSecret } from '../credentials/opaque-secret.js';
import { verifyPassword } from '../credentials/passwords.js';
import { SESSION_IDLE_DAYS } from './session-user.js';

/** Failed attempts allowed per address and per IP in the window, before a pause. */
export const SIGN_IN_LIMITS = { windowMinutes: 15, perEmail: 5, perIp: 30 };

/**
 * Failed attempts are counted in Postgres, so the limit holds across every gateway and
 * tokens worker; a success does not reset it (a guesser who hits once must not get more).
 */
async function checkRateLimit(em: EntityManager, email: string, ip: string): Promise<void> {
  const since = new Date(Date.now() - SIGN_IN_LIMITS.windowMinutes * 60_000).toISOString();
  const row = await sqlOf(em)
    .selectFrom('sign_in_attempts')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('email', '=', email).as('by_email'),
      eb.fn.countAll<string>().filterWhere('ip', '=', ip).as('by_ip'),
    ])
    .where('succeeded', '=', false)
    .where('created_at', '>', since)
    .where((eb) => eb.or([eb('email', '=', email), eb('ip', '=', ip)]))
    .executeTakeFirstOrThrow();
  if (Number(row.by_email) >= SIGN_IN_LIMITS.perEmail || Number(row.by_ip) >= SIGN_IN_LIMITS.perIp) {
    throw new RateLimitedError(SIGN_IN_LIMITS.windowMinutes * 60);
  }
}

async function record(em: EntityManager, email: string, ip: string, succeeded: boolean): Promise<void> {
  await sqlOf(em).insertInto('sign_in_attempts').values({ email, ip, succeeded, created_at: new Date() }).execute();
}

/** Signs a user in with e-mail and password; errors say which of the two is wrong. */
export const signInHandler: UnscopedHandler<typeof signIn> = async ({ input, em, services }) => {
  const email = input.email.trim().toLowerCase();
  await checkRateLimit(em, email, input.ip);
  const user = await sqlOf(em).selectFrom('users').select(['id', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst();
  if (!user) {
    await record(em, email, input.ip, false);
    throw new UnknownEmailError(email);
  }
  if (!(await verifyPassword(input.password, user.password_hash))) {
    await record(em, email, input.ip, false);
    throw new WrongPasswordError(`That is not the password of ${email}.`, 'password');
  }
  await record(em, email, input.ip, true);

  // A new session on every sign-in: a session id fixed before signing in is never reused.
  const token = newOpaqueSecret('ses');
  const now = new Date();
  const sessionId = newId('session');
  await sqlOf(em)
    .insertInto('user_sessions')
    .values({
      id: sessionId,
      token_hash: hashOpaqueSecret(services.secrets.opaqueHashKey, token),
      user_id: user.id,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + SESSION_IDLE_DAYS * 86_400_000),
      revoked_at: null,
    })
    .execute();
  return { session_id: sessionId, session_token: token, user: { id: user.id, email: user.email } };
};
