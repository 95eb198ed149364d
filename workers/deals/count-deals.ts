import { sql } from 'kysely';
import type { countDeals } from '../../shared/contracts/deals.js';
import { resolveCreatedRange } from '../runtime/created-range.js';
import { withListSettings } from '../runtime/list-settings.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { applicableDealFilters, explainEmptyResult, whereDealFilters } from './deal-filters.js';
import { amountSum } from './money.js';
import { stagesWithPipelines, type ActiveStagesOf } from './stages-with-pipelines.js';

/**
 * How many deals match, and their count and amount per stage and currency, in pipeline and stage order. Without a stage
 * filter, every active stage of the pipeline filtered on, or without one of every active pipeline, zero included.
 */
export const countDealsHandler: OperationHandler<typeof countDeals> = async ({ input, context, db }) =>
  withListSettings(db, 'deal', async (settings, current) => {
    const range = resolveCreatedRange(input, settings.time_zone, new Date());
    const applied = await applicableDealFilters(db, input, range);
    const owner = ownerRestriction(context);
    const query = db
      .selectFrom('deals')
      .select(['stage_id', 'currency', sql<number>`count(*)::int`.as('count'), sql<string | null>`sum(amount)::text`.as('amount')])
      .where(current)
      .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
      .groupBy(['stage_id', 'currency']);
    const groups = await whereDealFilters(query, applied).execute();
    if (groups.length === 0) await explainEmptyResult(db, context, input);

    // Without a stage filter, the empty stages too: a stage or pipeline left out of by_stage was read as one that does not exist.
    const activeOf: ActiveStagesOf | undefined = applied.stage_ids !== undefined ? undefined : applied.pipeline_id !== undefined ? { pipeline_id: applied.pipeline_id } : 'every active pipeline';
    const stages = await stagesWithPipelines(db, groups.map((g) => g.stage_id), activeOf);
    const groupsOf = new Map<string, typeof groups>();
    for (const g of groups) groupsOf.set(g.stage_id, [...(groupsOf.get(g.stage_id) ?? []), g]);
    const byStage = stages.map((s) => {
      const own = groupsOf.get(s.id) ?? [];
      return {
        stage_id: s.id,
        stage_name: s.name,
        pipeline_id: s.pipeline_id,
        pipeline_name: s.pipeline_name,
        count: own.reduce((n, g) => n + g.count, 0),
        amounts: own.filter((g) => g.currency !== null && g.amount !== null).map((g) => ({ currency: g.currency!, amount: amountSum(g.amount!) })),
      };
    });
    return { count: byStage.reduce((n, s) => n + s.count, 0), by_stage: byStage, applied_range: { ...range, time_zone: settings.time_zone } };
  });
