import type { resolveSession, signOut } from '../../../shared/contracts/sessions.js';
import { sqlOf } from '../../../shared/db/sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashOpaqueSecret } from '../credentials/opaque-secret.js';
import { sessionUser, touchSession } from './session-user.js';

/** The user behind a session cookie; every page seen extends the session. */
export const resolveSessionHandler: UnscopedHandler<typeof resolveSession> = async ({ input, em, services }) => {
  const session = await sessionUser(em, services.secrets.opaqueHashKey, input.session_token);
  await touchSession(em, session);
  return { session_id: session.session_id, user: session.user };
};

export const signOutHandler: UnscopedHandler<typeof signOut> = async ({ input, em, services }) => {
  const row = await sqlOf(em)
    .updateTable('user_sessions')
    .set({ revoked_at: new Date() })
    .where('token_hash', '=', hashOpaqueSecret(services.secrets.opaqueHashKey, input.session_token))
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return { signed_out: row !== undefined };
};
