import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { EntityManager } from '../../../shared/db/orm.js';
import type { revokeOAuthToken } from '../../../shared/contracts/oauth.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { InvalidGrantError } from '../../../shared/errors.js';
import { hashOpaqueSecret } from '../credentials/opaque-secret.js';
import { agentEvents } from './grant-event-recorders.js';
import { announceGrantChanged, revokeGrant } from './revoke-grant.js';
import { publishedKeys } from './signing-keys.js';

/**
 * The claims of an access token this server signed, expired or not: access tokens live ten
 * minutes, and a client that revokes with the one it holds wants its grant ended whenever
 * it does so (the grant's refresh token lives on). Undefined for anything else.
 */
async function signedClaims(em: EntityManager, token: string, issuer: string): Promise<JWTPayload | undefined> {
  const keys = createLocalJWKSet({ keys: (await publishedKeys(em)) as JSONWebKeySet['keys'] });
  try {
    return (await jwtVerify(token, keys, { issuer })).payload;
  } catch (error) {
    // jose checks expiry only once the signature holds, so an expired token's claims are ours.
    if (error instanceof joseErrors.JWTExpired) return error.payload;
    // Not one of our access tokens: nothing to revoke.
    return undefined;
  }
}

/**
 * RFC 7009 §2.1: a token issued to another client is refused (invalid_grant, RFC 6749 §5.2),
 * not answered 200 as if revoked: the client would believe the grant ended while it stands.
 */
const ANOTHER_CLIENT = 'The token was issued to another client: only that client can revoke it.';

/**
 * RFC 7009 revocation of a refresh token or an access token: either way the grant ends.
 * Unknown tokens are ignored (the endpoint answers 200); another client's are refused.
 */
export const revokeOAuthTokenHandler: UnscopedHandler<typeof revokeOAuthToken> = async ({ input, em, services, requestId }) => {
  let grant: { id: string; workspaceId: string } | undefined;
  const refresh = await crossWorkspaceSql(em, 'a refresh token is found by its hash; its grant tells the workspace')
    .selectFrom('oauth_refresh_tokens as r')
    .innerJoin('oauth_grants as g', 'g.id', 'r.grant_id')
    .select(['g.id', 'g.client_id', 'g.workspace_id'])
    .where('r.token_hash', '=', hashOpaqueSecret(services.secrets.opaqueHashKey, input.token))
    .executeTakeFirst();
  if (refresh && refresh.client_id !== input.client_id) throw new InvalidGrantError(ANOTHER_CLIENT);
  if (refresh) grant = { id: refresh.id, workspaceId: refresh.workspace_id };
  if (!grant && input.token.split('.').length === 3) {
    const payload = await signedClaims(em, input.token, input.issuer);
    // Access tokens carry their grant (gnt) and its workspace (ws), signed.
    if (payload && payload.client_id !== input.client_id) throw new InvalidGrantError(ANOTHER_CLIENT);
    if (typeof payload?.gnt === 'string' && typeof payload.ws === 'string') grant = { id: payload.gnt, workspaceId: payload.ws };
  }
  if (!grant) return { revoked: false };
  const { id, workspaceId } = grant;
  const revoked = await em.transactional(async (tx) => {
    const db = workspaceSql(tx, workspaceId);
    const owner = await db.selectFrom('oauth_grants').select('user_id').where('id', '=', id).executeTakeFirst();
    if (!owner) return false;
    return revokeGrant(db, agentEvents(db, { id, userId: owner.user_id }, requestId), id, 'revoked by the client');
  });
  announceGrantChanged(services, id);
  return { revoked };
};
