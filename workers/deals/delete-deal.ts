import type { deleteDeal } from '../../shared/contracts/deals.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toDealResource } from './deal-resource.js';
import { findVisibleDeal } from './get-deal.js';

/** Removes a deal; its event keeps the deal as it was. */
export const deleteDealHandler: OperationHandler<typeof deleteDeal> = async ({ input, context, db, events }) => {
  const deal = await findVisibleDeal(db, context, input.id, { lock: true });
  await db.deleteFrom('deals').where('id', '=', deal.id).execute();
  await events.record({ type: 'deal.deleted', object: toDealResource(deal, deal.field_keys) });
  return { object: 'deal' as const, id: deal.id, deleted: true as const };
};
