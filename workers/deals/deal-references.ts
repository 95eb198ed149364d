import { grantsScope } from '../../shared/auth/scopes.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { MissingScopeError, NotFoundError } from '../../shared/errors.js';
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

/**
 * A contact a deal may be linked to by this caller: one they may read. Without contacts:read a
 * 403 comes before any look-up, so deals:write alone cannot tell which contact ids exist (a 404
 * against a link). Unlinking (contact_id null) names no contact and needs no such scope.
 */
export async function requireLinkableContact(db: WorkspaceSql, context: CallContext, contactId: string): Promise<void> {
  if (!grantsScope(context.principal.scopes, 'contacts:read')) {
    throw new MissingScopeError('contacts:read', 'Linking a deal to a contact needs the scope contacts:read, which the credential does not hold; contact_id null unlinks without it.');
  }
  await requireVisibleContact(db, context, contactId);
}
