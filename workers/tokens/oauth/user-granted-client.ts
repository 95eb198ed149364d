import type { EntityManager } from '../../../shared/db/orm.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import { UnauthenticatedError } from '../../../shared/errors.js';
import { sessionUser } from '../sessions/session-user.js';

/**
 * Whether the browser's signed-in user has, or had, a grant to this client (revoked ones
 * count: the user chose that client once). Only then does /oauth/authorize send its errors
 * to the client; a client somebody else approved could be anyone's (RFC 9700 §4.11.2).
 * No session, or one that has ended: no.
 */
export async function userGrantedClient(em: EntityManager, key: Buffer, sessionToken: string | undefined, clientId: string): Promise<boolean> {
  if (sessionToken === undefined) return false;
  let userId: string;
  try {
    userId = (await sessionUser(em, key, sessionToken)).user.id;
  } catch (error) {
    if (error instanceof UnauthenticatedError) return false;
    throw error;
  }
  const grant = await crossWorkspaceSql(em, "the user's own grants, in any of their workspaces, to this one client")
    .selectFrom('oauth_grants')
    .select('id')
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .limit(1)
    .executeTakeFirst();
  return grant !== undefined;
}
