import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { ForbiddenError, NotFoundError } from '../../shared/errors.js';

/**
 * The owner of a new contact or deal. It defaults to the signed-in user (an agent acting
 * for them); tokens create unowned records unless they name an owner, who must be a
 * member of the workspace. A member who sees only their own records cannot hand one to
 * somebody else.
 */
export async function resolveOwner(em: EntityManager, context: CallContext, requested: string | null | undefined): Promise<string | null> {
  const actingUser = context.principal.type === 'user' ? context.principal.id : null;
  const ownerId = requested === undefined ? actingUser : requested;
  if (ownerId === null) return null;
  if (context.visibility === 'owned' && ownerId !== actingUser) {
    throw new ForbiddenError('You can only assign records to yourself: your membership sees owned records only.');
  }
  const member = await sqlOf(em)
    .selectFrom('memberships')
    .select('user_id')
    .where('workspace_id', '=', context.workspace_id)
    .where('user_id', '=', ownerId)
    .executeTakeFirst();
  if (!member) throw new NotFoundError('workspace member', ownerId, 'owner_id');
  return ownerId;
}
