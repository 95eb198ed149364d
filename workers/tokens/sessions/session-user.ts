import type { EntityManager } from '../../../shared/db/orm.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { UnauthenticatedError } from '../../../shared/errors.js';
import { hashOpaqueSecret } from '../opaque-secret.js';

/** Sessions last this long after the last page seen. */
export const SESSION_IDLE_DAYS = 14;

/** The signed-in user of a session cookie; a missing, expired or signed-out session is a 401. */
export async function sessionUser(em: EntityManager, key: Buffer, sessionToken: string) {
  const row = await sqlOf(em)
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id as session_id', 's.last_seen_at', 'u.id as user_id', 'u.email'])
    .where('s.token_hash', '=', hashOpaqueSecret(key, sessionToken))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date().toISOString())
    .executeTakeFirst();
  if (!row) throw new UnauthenticatedError('Your session has ended. Sign in again.');
  return { session_id: row.session_id, user: { id: row.user_id, email: row.email } };
}

/**
 * Every page seen extends the session. At most once a minute per session, so that
 * browsing the console does not write on every page.
 */
export async function touchSession(em: EntityManager, sessionId: string): Promise<void> {
  const now = new Date();
  await sqlOf(em)
    .updateTable('user_sessions')
    .set({ last_seen_at: now, expires_at: new Date(now.getTime() + SESSION_IDLE_DAYS * 86_400_000) })
    .where('id', '=', sessionId)
    .where('last_seen_at', '<', new Date(now.getTime() - 60_000).toISOString())
    .execute();
}
