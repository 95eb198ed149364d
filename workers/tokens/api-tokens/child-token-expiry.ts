import type { CallContext } from '../../../shared/contracts/call-context.js';
import { pgTimestamp } from '../../../shared/db/sql.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { UnauthenticatedError, ValidationError } from '../../../shared/errors.js';

export interface TokenLineage {
  /** The creating token, or null when a person or the command line creates it. */
  parentId: string | null;
  expiresAt: Date | null;
}

/**
 * A token created by a token never outlives it, or a short-lived token could mint a
 * permanent one: without an expiry the child takes its parent's; a later one is refused.
 */
export async function childTokenLineage(db: WorkspaceSql, context: CallContext, requested: Date | null): Promise<TokenLineage> {
  if (context.principal.type !== 'token') return { parentId: null, expiresAt: requested };
  // Shared-locked until the child commits: a revocation of the parent (which locks it for
  // update) either waits and then finds the child among its descendants, or commits first and
  // the child is refused; unlocked, a child could slip past a revocation with revoke_children.
  const parent = await db.selectFrom('api_tokens').select(['id', 'expires_at', 'revoked_at']).where('id', '=', context.principal.id).forShare().executeTakeFirst();
  // The gateway checked the token a moment ago; one revoked or expired since is refused as every
  // later request with it is (401), and no child inherits an expiry that has already passed.
  if (!parent || parent.revoked_at) throw new UnauthenticatedError('The API token has been revoked.');
  if (parent.expires_at === null) return { parentId: parent.id, expiresAt: requested };
  const parentExpiry = pgTimestamp(parent.expires_at);
  if (parentExpiry.getTime() <= Date.now()) throw new UnauthenticatedError('The API token has expired.');
  if (requested === null) return { parentId: parent.id, expiresAt: parentExpiry };
  if (requested > parentExpiry) {
    throw new ValidationError(`expires_at: must not be later than the expiry of the token creating it (${parentExpiry.toISOString()}).`, 'expires_at');
  }
  return { parentId: parent.id, expiresAt: requested };
}
