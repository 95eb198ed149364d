import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { revokeOAuthToken } from '../../../shared/contracts/oauth.js';
import { sqlOf } from '../../../shared/db/sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashOpaqueSecret } from '../opaque-secret.js';
import { revokeGrant } from './revoke-grant.js';
import { publishedKeys } from './signing-keys.js';

/**
 * RFC 7009 revocation of a refresh token or an access token: either way the grant ends.
 * Unknown tokens, and those of another client, are ignored (the endpoint answers 200).
 */
export const revokeOAuthTokenHandler: UnscopedHandler<typeof revokeOAuthToken> = async ({ input, em, services }) => {
  let grantId: string | undefined;
  const refresh = await sqlOf(em)
    .selectFrom('oauth_refresh_tokens as r')
    .innerJoin('oauth_grants as g', 'g.id', 'r.grant_id')
    .select(['g.id', 'g.client_id'])
    .where('r.token_hash', '=', hashOpaqueSecret(services.secrets.opaqueHashKey, input.token))
    .executeTakeFirst();
  if (refresh?.client_id === input.client_id) grantId = refresh.id;
  if (!grantId && input.token.split('.').length === 3) {
    try {
      const keys = createLocalJWKSet({ keys: (await publishedKeys(em)) as JSONWebKeySet['keys'] });
      const { payload } = await jwtVerify(input.token, keys, { issuer: input.issuer });
      if (payload.client_id === input.client_id && typeof payload.gnt === 'string') grantId = payload.gnt;
    } catch {
      // Not one of our access tokens: nothing to revoke.
    }
  }
  return { revoked: grantId ? await revokeGrant(em, services, grantId, 'revoked by the client') : false };
};
