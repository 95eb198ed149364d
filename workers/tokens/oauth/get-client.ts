import type { getOAuthClient } from '../../../shared/contracts/oauth.js';
import { sqlOf } from '../../../shared/db/sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { userGrantedClient } from './user-granted-client.js';

export const getClientHandler: UnscopedHandler<typeof getOAuthClient> = async ({ input, em, services }) => {
  const row = await sqlOf(em).selectFrom('oauth_clients').select('metadata').where('id', '=', input.client_id).executeTakeFirst();
  if (!row) return { client: null, user_granted: false };
  return { client: row.metadata, user_granted: await userGrantedClient(em, services.secrets.opaqueHashKey, input.session_token, input.client_id) };
};
