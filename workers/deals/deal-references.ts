import type { CallContext } from '../../shared/contracts/call-context.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../shared/errors.js';
import { ownerRestriction } from '../runtime/visibility.js';

/** A contact the caller may see in this workspace; anything else is a 404 naming contact_id. */
export async function requireVisibleContact(db: WorkspaceSql, context: CallContext, contactId: string): Promise<void> {
  const owner = ownerRestriction(context);
  const row = await db
    .selectFrom('contacts')
    .select('id')
    .where('id', '=', contactId)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .executeTakeFirst();
  if (!row) throw new NotFoundError('contact', contactId, 'contact_id');
}
