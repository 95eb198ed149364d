import type { getDeal } from '../../shared/contracts/deals.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { NotFoundError } from '../../shared/errors.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toDealResource, type DealRow } from './deal-resource.js';

/** A deal the caller may see, with the workspace's active deal field keys; otherwise 404. */
export async function findVisibleDeal(em: EntityManager, context: CallContext, id: string): Promise<DealRow & { field_keys: string[] }> {
  const owner = ownerRestriction(context);
  const row = await sqlOf(em)
    .selectFrom('deals')
    .selectAll()
    .select(activeFieldKeysSql(context.workspace_id, 'deal').as('field_keys'))
    .where('workspace_id', '=', context.workspace_id)
    .where('id', '=', id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .executeTakeFirst();
  if (!row) throw new NotFoundError('deal', id, 'id');
  return row;
}

export const getDealHandler: OperationHandler<typeof getDeal> = async ({ input, context, em }) => {
  const row = await findVisibleDeal(em, context, input.id);
  return toDealResource(row, row.field_keys);
};
