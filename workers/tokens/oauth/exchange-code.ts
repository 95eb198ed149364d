import type { exchangeCode } from '../../../shared/contracts/oauth.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import { pgTimestamp, sqlOf } from '../../../shared/db/sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import { InvalidGrantError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashOpaqueSecret } from '../credentials/opaque-secret.js';
import { issueTokens } from './issue-tokens.js';
import { systemEvents } from './grant-event-recorders.js';
import { announceGrantChanged, revokeGrant } from './revoke-grant.js';
import { REVOKED_FOR_THEFT } from './theft-revocations.js';

const sameResource = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * Authorization code → tokens, once. A code presented again means it leaked: the grant
 * it created is revoked, so whatever was issued with it stops working too (RFC 6749 §4.1.2).
 */
export const exchangeCodeHandler: UnscopedHandler<typeof exchangeCode> = async ({ input, em, services, requestId }) => {
  const outcome = await em.transactional(async (tx) => {
    const code = await crossWorkspaceSql(tx, 'a code is found by its hash; its grant tells the workspace')
      .selectFrom('oauth_codes as c')
      .innerJoin('oauth_grants as g', 'g.id', 'c.grant_id')
      .select(['c.code_hash', 'c.client_id', 'c.redirect_uri', 'c.resource', 'c.expires_at', 'c.used_at', 'g.id', 'g.user_id', 'g.workspace_id', 'g.server', 'g.scopes', 'g.revoked_at', 'g.created_at'])
      .where('c.code_hash', '=', hashOpaqueSecret(services.secrets.opaqueHashKey, input.code))
      .forUpdate('c')
      .executeTakeFirst();
    if (!code || code.client_id !== input.client_id) throw new InvalidGrantError('The authorization code is not valid.');
    if (code.used_at) return { kind: 'reuse' as const, grantId: code.id, workspaceId: code.workspace_id };
    if (pgTimestamp(code.expires_at) < new Date()) throw new InvalidGrantError('The authorization code has expired.');
    if (input.redirect_uri !== undefined && input.redirect_uri !== code.redirect_uri) throw new InvalidGrantError('redirect_uri does not match the authorization request.');
    if (input.resource !== undefined && !sameResource(input.resource, code.resource)) throw new InvalidGrantError('resource does not match the authorization request.');
    if (code.revoked_at) throw new InvalidGrantError('The grant has been revoked.');
    await sqlOf(tx).updateTable('oauth_codes').set({ used_at: new Date() }).where('code_hash', '=', code.code_hash).execute();
    return { kind: 'issued' as const, tokens: await issueTokens(tx, services.secrets, { ...code, client_id: input.client_id }, input.issuer, undefined, input.issue_refresh_token) };
  });
  if (outcome.kind === 'reuse') {
    const { grantId, workspaceId } = outcome;
    await em.transactional(async (tx) => {
      const db = workspaceSql(tx, workspaceId);
      await revokeGrant(db, systemEvents(db, requestId), grantId, REVOKED_FOR_THEFT.codeReplayed);
    });
    announceGrantChanged(services, grantId);
    throw new InvalidGrantError('The authorization code was already used; the tokens issued with it have been revoked.');
  }
  return outcome.tokens;
};
