import type { listDeals } from '../../shared/contracts/deals.js';
import { resolveCreatedRange } from '../runtime/created-range.js';
import { decodeCursor, pageFrom, type CursorScope } from '../runtime/keyset-cursor.js';
import { afterPosition, beforePosition } from '../runtime/keyset-sql.js';
import { withListSettings } from '../runtime/list-settings.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { applicableDealFilters, explainEmptyResult, whereDealFilters } from './deal-filters.js';
import { DEAL_COLUMNS, toDealResource } from './deal-resource.js';

/** One page of deals in (created_at, id) order, or its reverse; the cursor continues the same filtered query. */
export const listDealsHandler: OperationHandler<typeof listDeals> = async ({ input, context, db, services }) =>
  withListSettings(db, 'deal', async (settings, current) => {
    const { limit, cursor, sort, ...filters } = input;
    const workspaceId = context.workspace_id;
    const range = resolveCreatedRange(filters, settings.time_zone, new Date());
    const applied = await applicableDealFilters(db, filters, range);
    const newestFirst = sort === 'newest_first';
    // As for contacts: the order is part of the query a cursor continues, and the default adds nothing.
    const scope: CursorScope = { workspaceId, list: 'deals', filters: { ...applied, sort: newestFirst ? 'newest_first' : undefined } };
    const after = cursor ? decodeCursor(services.secrets.cursorKey, scope, cursor) : undefined;
    const owner = ownerRestriction(context);
    const query = db
      .selectFrom('deals')
      .select(DEAL_COLUMNS)
      .where(current)
      .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
      .$if(after !== undefined, (q) => q.where(newestFirst ? beforePosition(after!) : afterPosition(after!)));
    const direction = newestFirst ? 'desc' : 'asc';
    const rows = await whereDealFilters(query, applied).orderBy('created_at', direction).orderBy('id', direction).limit(limit + 1).execute();
    if (rows.length === 0 && !cursor) await explainEmptyResult(db, context, filters);
    const page = pageFrom(rows, limit, services.secrets.cursorKey, scope, (row) => toDealResource(row, settings.field_keys));
    return { ...page, applied_range: { ...range, time_zone: settings.time_zone } };
  });
