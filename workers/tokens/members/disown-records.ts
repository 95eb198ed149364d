import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { CONTACT_COLUMNS, toContactResource } from '../../contacts/contact-resource.js';
import { DEAL_COLUMNS, toDealResource } from '../../deals/deal-resource.js';
import type { Change, EventRecorder } from '../../runtime/events/event-recorder.js';
import { nextUpdatedAtSql } from '../../runtime/next-updated-at.js';
import { activeFieldKeysSql } from '../../schema/custom-field-definitions.js';

/** Records changed and recorded per statement: a member may own tens of thousands. */
const CHUNK = 1_000;

const disowned = <R extends { id: string; owner_id: string | null }>(type: 'contact.updated' | 'deal.updated', after: R, userId: string): Change => ({
  type,
  object: after,
  previous: { ...after, owner_id: userId },
});

/**
 * Makes the contacts and deals a leaving member owned unowned, each with its
 * `contact.updated` / `deal.updated` event. Done here rather than left to the foreign key's
 * `on delete set null`, which would change the records without an event, so a copy kept from
 * the feed or webhooks would keep the old owner. In chunks, so neither memory nor one
 * statement grows with what the member owned.
 */
export async function disownRecords(db: WorkspaceSql, events: EventRecorder, userId: string): Promise<void> {
  const set = { owner_id: null, updated_at: nextUpdatedAtSql() };
  // Each call unsets the owner of the next chunk of one kind and returns its changes.
  const nextChunks: (() => Promise<Change[]>)[] = [
    async () =>
      (
        await db
          .updateTable('contacts')
          .set(set)
          .where('id', 'in', db.selectFrom('contacts').select('id').where('owner_id', '=', userId).limit(CHUNK))
          .returning([...CONTACT_COLUMNS, activeFieldKeysSql(db, 'contact').as('field_keys')])
          .execute()
      ).map((row) => disowned('contact.updated', toContactResource(row, row.field_keys), userId)),
    async () =>
      (
        await db
          .updateTable('deals')
          .set(set)
          .where('id', 'in', db.selectFrom('deals').select('id').where('owner_id', '=', userId).limit(CHUNK))
          .returning([...DEAL_COLUMNS, activeFieldKeysSql(db, 'deal').as('field_keys')])
          .execute()
      ).map((row) => disowned('deal.updated', toDealResource(row, row.field_keys), userId)),
  ];
  for (const nextChunk of nextChunks) {
    for (;;) {
      const changes = await nextChunk();
      await events.record(...changes);
      if (changes.length < CHUNK) break;
    }
  }
}
