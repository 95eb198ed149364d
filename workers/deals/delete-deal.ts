import type { deleteDeal } from '../../shared/contracts/deals.js';
import { requireExpectedVersion } from '../runtime/expected-version.js';
import { toNoteResource } from '../notes/note-resource.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toDealResource } from './deal-resource.js';
import { findVisibleDeal } from './get-deal.js';

/**
 * Removes a deal and, with it, its notes (foreign key); each gets its own `deleted` event
 * keeping it as it was, so a copy kept from the feed or webhooks drops them too.
 */
export const deleteDealHandler: OperationHandler<typeof deleteDeal> = async ({ input, context, db, events }) => {
  const deal = await findVisibleDeal(db, context, input.id, { lock: true });
  requireExpectedVersion('deal', deal.id, deal, input.expected_versions);
  const notes = await db.selectFrom('notes').selectAll().where('deal_id', '=', deal.id).orderBy('created_at').orderBy('id').forUpdate().execute();
  await db.deleteFrom('deals').where('id', '=', deal.id).execute();
  await events.record(
    ...notes.map((note) => ({ type: 'note.deleted' as const, object: toNoteResource(note), owner: deal.owner_id })),
    { type: 'deal.deleted', object: toDealResource(deal, deal.field_keys) },
  );
  return { object: 'deal' as const, id: deal.id, deleted: true as const };
};
