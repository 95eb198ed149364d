import type { deleteDeal } from '../../shared/contracts/deals.js';
import { NotFoundError } from '../../shared/errors.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';

export const deleteDealHandler: OperationHandler<typeof deleteDeal> = async ({ input, context, db }) => {
  const owner = ownerRestriction(context);
  const row = await db
    .deleteFrom('deals')
    .where('id', '=', input.id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new NotFoundError('deal', input.id, 'id');
  return { object: 'deal' as const, id: row.id, deleted: true as const };
};
