import type { CallContext } from '../../shared/contracts/call-context.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { ForbiddenError, NotFoundError } from '../../shared/errors.js';

/** An owner as requested (undefined: the default) → the owner to store, or the error to give. */
export type OwnerCheck = (requested: string | null | undefined) => string | null;

/**
 * The owner rule of new and changed contacts and deals, for any number of records with
 * one query for all the members they name. The owner defaults to the signed-in user (an
 * agent acting for them); tokens create unowned records unless they name an owner, who
 * must be a member of the workspace. A member who sees only their own records cannot
 * hand one to somebody else, nor leave one unowned: either would hide it from them.
 */
export async function ownerResolver(db: WorkspaceSql, context: CallContext, requested: Iterable<string | null | undefined>): Promise<OwnerCheck> {
  const actingUser = context.principal.type === 'user' ? context.principal.id : null;
  const ownerOf = (owner: string | null | undefined) => (owner === undefined ? actingUser : owner);
  const mayAssign = (id: string | null) => context.visibility !== 'owned' || (id !== null && id === actingUser);
  // Owners refused anyway are not looked up, so a single refused owner costs no query.
  const named = new Set<string>();
  for (const owner of requested) {
    const id = ownerOf(owner);
    if (id !== null && mayAssign(id)) named.add(id);
  }
  const members = new Set<string>();
  if (named.size > 0) {
    const rows = await db
      .selectFrom('memberships')
      .select('user_id')
      .where('user_id', 'in', [...named])
      // Held until the write commits: a member removed meanwhile waits, then their records lose the owner (ON DELETE SET NULL) instead of the write failing its key.
      .forKeyShare()
      .execute();
    for (const row of rows) members.add(row.user_id);
  }
  return (owner) => {
    const id = ownerOf(owner);
    if (!mayAssign(id)) throw new ForbiddenError('You can only assign records to yourself: your membership sees owned records only.');
    if (id === null) return null;
    if (!members.has(id)) throw new NotFoundError('workspace member', id, 'owner_id');
    return id;
  };
}

/** The owner of one record (see {@link ownerResolver}). */
export async function resolveOwner(db: WorkspaceSql, context: CallContext, requested: string | null | undefined): Promise<string | null> {
  return (await ownerResolver(db, context, [requested]))(requested);
}
