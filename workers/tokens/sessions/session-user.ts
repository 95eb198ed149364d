import type { EntityManager } from '../../../shared/db/orm.js';
import { pgTimestamp, sqlOf } from '../../../shared/db/sql.js';
import { UnauthenticatedError } from '../../../shared/errors.js';
import { SESSION_LIFETIME } from '../../../shared/contracts/sessions.js';
import { hashOpaqueSecret } from '../credentials/opaque-secret.js';


/** A session is extended at most this often, so that browsing does not write on every page. */
const TOUCH_EVERY_MS = 60_000;

export interface SignedInSession {
  session_id: string;
  user: { id: string; email: string };
  /** The user still has the temporary password of an invitation. */
  password_change_required: boolean;
  last_seen_at: Date;
  created_at: Date;
}

const ABSOLUTE_MS = SESSION_LIFETIME.absoluteDays * 86_400_000;

/** The signed-in user of a session cookie; a missing, idle, too old or signed-out session is a 401. */
export async function sessionUser(em: EntityManager, key: Buffer, sessionToken: string): Promise<SignedInSession> {
  const row = await sqlOf(em)
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id as session_id', 's.last_seen_at', 's.created_at', 'u.id as user_id', 'u.email', 'u.password_change_required'])
    .where('s.token_hash', '=', hashOpaqueSecret(key, sessionToken))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date().toISOString())
    // The absolute lifetime, checked apart from expires_at so that no sliding write can outlast it.
    .where('s.created_at', '>', new Date(Date.now() - ABSOLUTE_MS).toISOString())
    .executeTakeFirst();
  if (!row) throw new UnauthenticatedError('Your session has ended. Sign in again.');
  return {
    session_id: row.session_id,
    user: { id: row.user_id, email: row.email },
    password_change_required: row.password_change_required,
    last_seen_at: pgTimestamp(row.last_seen_at),
    created_at: pgTimestamp(row.created_at),
  };
}

/**
 * Every page seen extends the session, at most once a minute. The check is made here
 * first, since the session was just read and most pages come within the minute; the
 * UPDATE repeats it so that concurrent pages still write once.
 */
export async function touchSession(em: EntityManager, session: Pick<SignedInSession, 'session_id' | 'last_seen_at' | 'created_at'>): Promise<void> {
  const now = new Date();
  const threshold = new Date(now.getTime() - TOUCH_EVERY_MS);
  if (session.last_seen_at >= threshold) return;
  await sqlOf(em)
    .updateTable('user_sessions')
    .set({ last_seen_at: now, expires_at: new Date(Math.min(now.getTime() + SESSION_LIFETIME.idleHours * 3_600_000, session.created_at.getTime() + ABSOLUTE_MS)) })
    .where('id', '=', session.session_id)
    .where('last_seen_at', '<', threshold.toISOString())
    .execute();
}
