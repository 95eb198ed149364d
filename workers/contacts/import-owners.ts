import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { ForbiddenError, NotFoundError } from '../../shared/errors.js';

/**
 * The owner check of `resolveOwner` for a whole batch of imported rows, with one query
 * for all the members they name: the acting user by default, a member of the workspace,
 * and only oneself for a member who sees owned records only. The returned function
 * throws the error the create call would give.
 */
export async function importOwnerResolver(
  em: EntityManager,
  context: CallContext,
  requested: Iterable<string | null | undefined>,
): Promise<(owner: string | null | undefined) => string | null> {
  const actingUser = context.principal.type === 'user' ? context.principal.id : null;
  const ownerOf = (owner: string | null | undefined) => (owner === undefined ? actingUser : owner);
  const named = new Set<string>();
  for (const owner of requested) {
    const id = ownerOf(owner);
    if (id !== null) named.add(id);
  }
  const members = new Set<string>();
  if (named.size > 0) {
    const rows = await sqlOf(em)
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', context.workspace_id)
      .where('user_id', 'in', [...named])
      .execute();
    for (const row of rows) members.add(row.user_id);
  }
  return (owner) => {
    const id = ownerOf(owner);
    if (id === null) return null;
    if (context.visibility === 'owned' && id !== actingUser) {
      throw new ForbiddenError('You can only assign records to yourself: your membership sees owned records only.');
    }
    if (!members.has(id)) throw new NotFoundError('workspace member', id, 'owner_id');
    return id;
  };
}
