import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { NotFoundError } from '../../shared/errors.js';
import { ownerRestriction } from '../runtime/visibility.js';

/** A contact the caller may see in this workspace; anything else is a 404 naming contact_id. */
export async function requireVisibleContact(em: EntityManager, context: CallContext, contactId: string): Promise<void> {
  const owner = ownerRestriction(context);
  const row = await sqlOf(em)
    .selectFrom('contacts')
    .select('id')
    .where('workspace_id', '=', context.workspace_id)
    .where('id', '=', contactId)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .executeTakeFirst();
  if (!row) throw new NotFoundError('contact', contactId, 'contact_id');
}
