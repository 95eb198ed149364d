import type { EntityManager } from '../../../shared/db/orm.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { NotFoundError } from '../../../shared/errors.js';

/** An authorization request still waiting for a decision; an expired or finished one is gone. */
export async function pendingRequest(em: EntityManager, id: string, forUpdate = false) {
  const query = sqlOf(em)
    .selectFrom('oauth_authorization_requests as r')
    .innerJoin('oauth_clients as c', 'c.id', 'r.client_id')
    .select(['r.id', 'r.client_id', 'r.redirect_uri', 'r.code_challenge', 'r.state', 'r.server', 'r.resource', 'r.requested_scopes', 'c.client_name'])
    .where('r.id', '=', id)
    .where('r.completed_at', 'is', null)
    .where('r.expires_at', '>', new Date().toISOString());
  const row = await (forUpdate ? query.forUpdate('r') : query).executeTakeFirst();
  if (!row) throw new NotFoundError('authorization request (it expired or was already used; start again from your client)', id, 'request');
  return row;
}
