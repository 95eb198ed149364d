import { encode } from '../../../shared/bus/codec.js';
import { eventSubjectOf } from '../../../shared/bus/bus-event.js';
import { TOKEN_REVOKED_EVENT } from '../../../shared/contracts/broadcasts.js';
import type { revokeToken } from '../../../shared/contracts/tokens.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { EventRecorder } from '../../runtime/events/event-recorder.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from '../members/grantable-scopes.js';
import { toTokenResource, type TokenRow } from './token-resource.js';

/**
 * Revokes the tokens given that are not revoked yet, each with its `token.revoked` event;
 * one revoked before keeps its time and gets no second event.
 */
async function revokeNow(db: WorkspaceSql, events: EventRecorder, ids: string[], now: Date): Promise<TokenRow[]> {
  if (ids.length === 0) return [];
  const revoked = await db.updateTable('api_tokens').set({ revoked_at: now }).where('id', 'in', ids).where('revoked_at', 'is', null).returningAll().execute();
  await events.record(
    ...revoked.map((row) => {
      const token = toTokenResource(row);
      return { type: 'token.revoked' as const, object: token, previous: { ...token, revoked_at: null } };
    }),
  );
  return revoked;
}

/** Every token created, directly or not, by `rootId` (locked, revoked or not), a generation at a time. */
async function descendantsOf(db: WorkspaceSql, rootId: string): Promise<string[]> {
  const all: string[] = [];
  let generation = [rootId];
  while (generation.length > 0) {
    const children = await db.selectFrom('api_tokens').select('id').where('parent_id', 'in', generation).forUpdate().execute();
    generation = children.map((c) => c.id);
    all.push(...generation);
  }
  return all;
}

/**
 * Revokes a token of the caller's workspace and, when asked, every token it created (and
 * theirs), in the call's one transaction, so no child outlives a revocation meant to end them all.
 */
export const revokeTokenHandler: OperationHandler<typeof revokeToken> = async ({ input, context, em, db, events, services, afterCommit }) => {
  await requireAdministrator(em, context);
  // Locked first, so that the event of a concurrent revocation is stored once.
  const before = await db.selectFrom('api_tokens').selectAll().where('id', '=', input.id).forUpdate().executeTakeFirst();
  if (!before) throw new NotFoundError('token', input.id, 'id');
  const children = input.revoke_children === true ? await descendantsOf(db, before.id) : [];
  const now = new Date();
  const [root] = await revokeNow(db, events, [before.id], now);
  await revokeNow(db, events, children, now);
  // Gateways drop the tokens from their caches once the revocation is committed; their short TTL covers a lost message.
  afterCommit(() => {
    for (const tokenId of [before.id, ...children]) {
      services.broadcasts.publish(eventSubjectOf(services.busNamespace, TOKEN_REVOKED_EVENT), encode({ token_id: tokenId }));
    }
  });
  return toTokenResource(root ?? before);
};
