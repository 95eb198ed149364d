import { sql } from 'kysely';
import type { archiveContact } from '../../shared/contracts/contacts.js';
import { NotFoundError } from '../../shared/errors.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { requireExpectedVersion } from '../runtime/expected-version.js';
import { nextUpdatedAtSql } from '../runtime/next-updated-at.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toContactResource } from './contact-resource.js';

/** DELETE /v1/contacts/{id}: the contact is archived, not removed, and stays readable. Archiving again changes nothing. If-Match is checked on the locked row, as for PATCH. */
export const archiveContactHandler: OperationHandler<typeof archiveContact> = async ({ input, context, db, events }) => {
  const owner = ownerRestriction(context);
  const before = await db
    .selectFrom('contacts')
    .select(['status', 'updated_at'])
    .where('id', '=', input.id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw new NotFoundError('contact', input.id, 'id');
  // Also when it is archived already: the client meant to archive what it read, and it has changed since.
  requireExpectedVersion('contact', input.id, before, input.expected_versions);
  const row = await db
    .updateTable('contacts')
    .set({ status: 'archived', updated_at: sql<string>`case when status = 'archived' then updated_at else ${nextUpdatedAtSql()} end` })
    .where('id', '=', input.id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .returningAll()
    .returning(activeFieldKeysSql(db, 'contact').as('field_keys'))
    .executeTakeFirst();
  if (!row) throw new NotFoundError('contact', input.id, 'id');
  const archived = toContactResource(row, row.field_keys);
  if (before.status !== 'archived') await events.record({ type: 'contact.archived', object: archived, previous: { ...archived, status: before.status } });
  return archived;
};
