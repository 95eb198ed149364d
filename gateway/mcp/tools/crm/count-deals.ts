import { countDeals, DealTotals } from '../../../../shared/contracts/deals.js';
import { defineTool } from '../../tool.js';
import { DealFilterInput } from './deal-filter-input.js';

export const countDealsTool = defineTool({
  name: 'count_deals',
  title: 'Count deals and their amounts',
  description:
    'How many deals match (that this connection may see), with the count and the amount per currency for each stage, in pipeline order: what a pipeline holds, in one call. Without a stage filter, every active stage is listed (of the pipeline given, else of every active pipeline), those with no deals as 0. Same filters as find_deals.',
  op: countDeals,
  input: DealFilterInput,
  output: DealTotals,
  opInput: ({ query, ...filters }) => ({ ...filters, q: query }),
});
