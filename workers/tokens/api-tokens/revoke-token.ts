import { encode } from '../../../shared/bus/codec.js';
import { eventSubjectOf } from '../../../shared/bus/bus-event.js';
import { TOKEN_REVOKED_EVENT } from '../../../shared/contracts/broadcasts.js';
import type { revokeToken } from '../../../shared/contracts/tokens.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from '../members/grantable-scopes.js';
import { toTokenResource } from './token-resource.js';

/** Every token created, directly or not, by `rootId`: revoked (keeping an earlier time), a generation at a time. */
async function revokeDescendants(db: WorkspaceSql, rootId: string, now: Date): Promise<string[]> {
  const revoked: string[] = [];
  let generation = [rootId];
  while (generation.length > 0) {
    const children = await db
      .updateTable('api_tokens')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
      .where('parent_id', 'in', generation)
      .returning('id')
      .execute();
    generation = children.map((c) => c.id);
    revoked.push(...generation);
  }
  return revoked;
}

/**
 * Revokes a token of the caller's workspace and, when asked, every token it created (and
 * theirs), in one transaction, so no child outlives a revocation meant to end them all.
 */
export const revokeTokenHandler: OperationHandler<typeof revokeToken> = async ({ input, context, em, db, services }) => {
  await requireAdministrator(em, context);
  const { row, children } = await em.transactional(async (tx) => {
    const inTx = db.within(tx);
    const now = new Date();
    const row = await inTx
      .updateTable('api_tokens')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
      .where('id', '=', input.id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError('token', input.id, 'id');
    return { row, children: input.revoke_children === true ? await revokeDescendants(inTx, row.id, now) : [] };
  });
  // Gateways drop the tokens from their caches at once; their short TTL covers a lost message.
  for (const tokenId of [row.id, ...children]) {
    services.broadcasts.publish(eventSubjectOf(services.busNamespace, TOKEN_REVOKED_EVENT), encode({ token_id: tokenId }));
  }
  return toTokenResource(row);
};
