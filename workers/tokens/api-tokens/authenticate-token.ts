import { looksLikeApiToken } from '../../../shared/auth/api-token-shape.js';
import type { authenticateToken } from '../../../shared/contracts/tokens.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import { isoTimestampOrNull, pgTimestamp } from '../../../shared/db/sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import { UnauthenticatedError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { lastUseDue } from '../last-use-due.js';
import { hashApiToken } from './token-secret.js';

/** Resolves a bearer token to its workspace and scopes, by its keyed hash. */
export const authenticateTokenHandler: UnscopedHandler<typeof authenticateToken> = async ({ input, em, services }) => {
  if (!looksLikeApiToken(input.token)) throw new UnauthenticatedError('The bearer token is not a valid API token.');
  // The one lookup that is not scoped by workspace: the workspace is what it finds out.
  const token = await crossWorkspaceSql(em, 'a token is found by its hash before its workspace is known')
    .selectFrom('api_tokens')
    .select(['id', 'workspace_id', 'scopes', 'expires_at', 'revoked_at', 'last_used_at'])
    .where('token_hash', '=', hashApiToken(services.secrets.tokenHashKey, input.token))
    .executeTakeFirst();
  const now = new Date();
  if (!token) throw new UnauthenticatedError('The API token is not valid.');
  if (token.revoked_at) throw new UnauthenticatedError('The API token has been revoked.');
  if (token.expires_at && pgTimestamp(token.expires_at) <= now) throw new UnauthenticatedError('The API token has expired.');

  if (lastUseDue(token.last_used_at, now)) {
    // A revocation that held the row while this waited has committed (and been broadcast) by
    // now: answering from the read above would let the gateway cache the token after it.
    const noted = await workspaceSql(em, token.workspace_id)
      .updateTable('api_tokens')
      .set({ last_used_at: now })
      .where('id', '=', token.id)
      .returning('revoked_at')
      .executeTakeFirst();
    if (!noted || noted.revoked_at) throw new UnauthenticatedError('The API token has been revoked.');
  }
  return {
    token_id: token.id,
    workspace_id: token.workspace_id,
    scopes: token.scopes,
    expires_at: isoTimestampOrNull(token.expires_at),
  };
};
