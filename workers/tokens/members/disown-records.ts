import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { CONTACT_COLUMNS, toContactResource } from '../../contacts/contact-resource.js';
import { DEAL_COLUMNS, toDealResource } from '../../deals/deal-resource.js';
import type { Change } from '../../runtime/events/event-recorder.js';
import { activeFieldKeysSql } from '../../schema/custom-field-definitions.js';

/**
 * Makes the contacts and deals a leaving member owned unowned, and returns their
 * `contact.updated` / `deal.updated` changes. Done here rather than left to the foreign
 * key's `on delete set null`, which would change the records without an event, so a copy
 * kept from the feed or webhooks would keep the old owner.
 */
export async function disownRecords(db: WorkspaceSql, userId: string): Promise<Change[]> {
  const now = new Date();
  const contacts = await db
    .updateTable('contacts')
    .set({ owner_id: null, updated_at: now })
    .where('owner_id', '=', userId)
    .returning([...CONTACT_COLUMNS, activeFieldKeysSql(db, 'contact').as('field_keys')])
    .execute();
  const deals = await db
    .updateTable('deals')
    .set({ owner_id: null, updated_at: now })
    .where('owner_id', '=', userId)
    .returning([...DEAL_COLUMNS, activeFieldKeysSql(db, 'deal').as('field_keys')])
    .execute();
  const change = <R extends { owner_id: string | null; id: string }>(type: 'contact.updated' | 'deal.updated', after: R): Change => ({
    type,
    object: after,
    previous: { ...after, owner_id: userId },
  });
  return [
    ...contacts.map((row) => change('contact.updated', toContactResource(row, row.field_keys))),
    ...deals.map((row) => change('deal.updated', toDealResource(row, row.field_keys))),
  ];
}
