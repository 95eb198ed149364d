import type { getDeal } from '../../shared/contracts/deals.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../shared/errors.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { DEAL_COLUMNS, toDealResource, type DealRow } from './deal-resource.js';

/**
 * A deal the caller may see, with the workspace's active deal field keys; otherwise 404.
 * `lock`: held until the write commits, so its event's previous values are the real ones.
 */
export async function findVisibleDeal(db: WorkspaceSql, context: CallContext, id: string, options: { lock?: boolean } = {}): Promise<DealRow & { field_keys: string[] }> {
  const owner = ownerRestriction(context);
  const row = await db
    .selectFrom('deals')
    .select(DEAL_COLUMNS)
    .select(activeFieldKeysSql(db, 'deal').as('field_keys'))
    .where('id', '=', id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw new NotFoundError('deal', id, 'id');
  return row;
}

export const getDealHandler: OperationHandler<typeof getDeal> = async ({ input, context, db }) => {
  const row = await findVisibleDeal(db, context, input.id);
  return toDealResource(row, row.field_keys);
};
