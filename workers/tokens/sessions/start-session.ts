import { SESSION_LIFETIME } from '../../../shared/contracts/sessions.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { newId } from '../../../shared/ids.js';
import { hashOpaqueSecret, newOpaqueSecret } from '../credentials/opaque-secret.js';

/** A new session for the user; the token goes into the cookie and only its keyed hash is stored. */
export async function startSession(em: EntityManager, key: Buffer, userId: string): Promise<{ session_id: string; session_token: string }> {
  const token = newOpaqueSecret('ses');
  const now = new Date();
  const sessionId = newId('session');
  await sqlOf(em)
    .insertInto('user_sessions')
    .values({
      id: sessionId,
      token_hash: hashOpaqueSecret(key, token),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + SESSION_LIFETIME.idleHours * 3_600_000),
      revoked_at: null,
    })
    .execute();
  return { session_id: sessionId, session_token: token };
}
