import type { getOAuthClient } from '../../../shared/contracts/oauth.js';
import { sqlOf } from '../../../shared/db/sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';

export const getClientHandler: UnscopedHandler<typeof getOAuthClient> = async ({ input, em }) => {
  const row = await sqlOf(em).selectFrom('oauth_clients').select(['metadata', 'first_consented_at']).where('id', '=', input.client_id).executeTakeFirst();
  return { client: row?.metadata ?? null, consented: row?.first_consented_at != null };
};
