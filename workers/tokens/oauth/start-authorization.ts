import type { startAuthorization } from '../../../shared/contracts/oauth.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { newId } from '../../../shared/ids.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';

/** A pending authorization lives this long: enough to sign in and decide. */
const REQUEST_TTL_MS = 15 * 60_000;

/** Remembers a validated /oauth/authorize request while the user signs in and decides. */
export const startAuthorizationHandler: UnscopedHandler<typeof startAuthorization> = async ({ input, em }) => {
  const now = new Date();
  const id = newId('authorizationRequest');
  await sqlOf(em)
    .insertInto('oauth_authorization_requests')
    .values({
      id,
      client_id: input.client_id,
      redirect_uri: input.redirect_uri,
      code_challenge: input.code_challenge,
      state: input.state,
      requested_scopes: input.scopes,
      server: input.server,
      resource: input.resource,
      created_at: now,
      expires_at: new Date(now.getTime() + REQUEST_TTL_MS),
      completed_at: null,
    })
    .execute();
  return { request_id: id };
};
