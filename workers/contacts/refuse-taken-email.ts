import { sql } from 'kysely';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { storedEmailForms } from '../../shared/contracts/email-address.js';
import { lockUntilTransactionEnds } from '../../shared/db/transaction-lock.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { EmailTakenError, InternalError } from '../../shared/errors.js';
import { ownerRestriction } from '../runtime/visibility.js';

/**
 * Refuses `email` (canonical, as the input schema makes it) when a contact of the workspace,
 * archived ones included, already has it in any stored form. No unique index covers e-mail
 * addresses (they are not unique), so creates that check the same address take a lock on it
 * until they commit: the second sees the first's contact. A create that does not check (REST,
 * an import) or an update that sets the address is not held back, and may still make a
 * duplicate alongside. The contact is named only to a caller who may see it.
 */
export async function refuseTakenEmail(db: WorkspaceSql, context: CallContext, email: string): Promise<void> {
  // Outside a transaction the lock would end with its own statement and guard nothing.
  if (!db.inTransaction) throw new InternalError('an e-mail address is checked for uniqueness only inside a transaction');
  await lockUntilTransactionEnds(db.global, `crm contact email:${db.workspaceId}:${email}`);
  const owner = ownerRestriction(context);
  // One the caller may see first, so that it is the one named when there are several.
  const existing = await db
    .selectFrom('contacts')
    .select(['id', 'owner_id'])
    .where('email', 'in', storedEmailForms(email))
    .$if(owner !== null, (q) => q.orderBy(sql`owner_id is not distinct from ${owner}`, 'desc'))
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!existing) return;
  throw new EmailTakenError(email, owner === null || existing.owner_id === owner ? existing.id : undefined);
}
