import { Scope } from '../../../shared/auth/scopes.js';
import type { refreshTokens } from '../../../shared/contracts/oauth.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import { pgTimestamp, sqlOf } from '../../../shared/db/sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import { InvalidGrantError, InvalidScopeError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashOpaqueSecret } from '../credentials/opaque-secret.js';
import { grantLifetimeEnded, issueTokens, resourceUrl } from './issue-tokens.js';
import { systemEvents } from './grant-event-recorders.js';
import { announceGrantChanged, revokeGrant } from './revoke-grant.js';
import { REVOKED_FOR_THEFT } from './theft-revocations.js';

/**
 * Refresh tokens rotate: each works once and comes back replaced. One presented a second
 * time has been copied, so the whole grant is revoked (OAuth 2.1 §4.3.1).
 */
export const refreshTokensHandler: UnscopedHandler<typeof refreshTokens> = async ({ input, em, services, requestId }) => {
  const outcome = await em.transactional(async (tx) => {
    const row = await crossWorkspaceSql(tx, 'a refresh token is found by its hash; its grant tells the workspace')
      .selectFrom('oauth_refresh_tokens as r')
      .innerJoin('oauth_grants as g', 'g.id', 'r.grant_id')
      .select(['r.token_hash', 'r.expires_at', 'r.rotated_at', 'g.id', 'g.user_id', 'g.workspace_id', 'g.client_id', 'g.server', 'g.scopes', 'g.revoked_at', 'g.created_at'])
      .where('r.token_hash', '=', hashOpaqueSecret(services.secrets.opaqueHashKey, input.refresh_token))
      .forUpdate('r')
      .executeTakeFirst();
    if (!row || row.client_id !== input.client_id) throw new InvalidGrantError('The refresh token is not valid.');
    if (row.rotated_at) return { kind: 'reuse' as const, grantId: row.id, workspaceId: row.workspace_id };
    if (row.revoked_at) throw new InvalidGrantError('The grant has been revoked.');
    if (pgTimestamp(row.expires_at) < new Date()) {
      throw new InvalidGrantError(grantLifetimeEnded(row.created_at) ? 'The grant has reached its maximum lifetime; authorize again.' : 'The refresh token has expired.');
    }
    if (input.resource !== undefined && input.resource.replace(/\/+$/, '') !== resourceUrl(input.issuer, row.server)) {
      throw new InvalidGrantError('resource does not match the grant.');
    }
    const requested = input.scopes?.map((s) => Scope.safeParse(s));
    if (requested?.some((s) => !s.success || !row.scopes.includes(s.data))) throw new InvalidScopeError('A refresh cannot add scopes to the grant.');
    await sqlOf(tx).updateTable('oauth_refresh_tokens').set({ rotated_at: new Date() }).where('token_hash', '=', row.token_hash).execute();
    const scopes = requested?.map((s) => s.data as Scope);
    return { kind: 'issued' as const, tokens: await issueTokens(tx, services.secrets, row, input.issuer, scopes) };
  });
  if (outcome.kind === 'reuse') {
    const { grantId, workspaceId } = outcome;
    await em.transactional(async (tx) => {
      const db = workspaceSql(tx, workspaceId);
      await revokeGrant(db, systemEvents(db, requestId), grantId, REVOKED_FOR_THEFT.refreshTokenReused);
    });
    announceGrantChanged(services, grantId);
    throw new InvalidGrantError('The refresh token was already used; the grant has been revoked.');
  }
  return outcome.tokens;
};
