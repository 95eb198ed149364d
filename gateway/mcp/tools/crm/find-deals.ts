import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, TimestampQuery } from '../../../../shared/contracts/common.js';
import { listDeals } from '../../../../shared/contracts/deals.js';
import { defineTool } from '../../tool.js';
import { DealForAgents, dealsForAgents } from './deal-for-agents.js';
import { PageInfo, PagingInput } from '../list-page.js';

export const findDealsTool = defineTool({
  name: 'find_deals',
  title: 'Find deals',
  description:
    'Deals in creation order, each with its stage and pipeline names and its contact, filtered by stage (a stage name such as "Negotiation", or a stg_ id), pipeline (name or pipe_ id), contact, or creation date range. Follow next_cursor for more.',
  op: listDeals,
  input: {
    stage: z.string().min(1).max(100).optional().describe('Stage name (case does not matter) or id'),
    pipeline: z.string().min(1).max(100).optional().describe('Pipeline name or id'),
    contact_id: z.string().max(64).optional(),
    created_after: TimestampQuery.optional(),
    created_before: TimestampQuery.optional(),
    ...PagingInput,
  },
  output: z.object({ deals: z.array(DealForAgents), ...PageInfo }),
  opInput: ({ limit, ...filters }) => ({ ...filters, limit: limit ?? DEFAULT_PAGE_SIZE }),
  result: async (page, _server, call) => ({ deals: await dealsForAgents(page.data, call), has_more: page.has_more, next_cursor: page.next_cursor }),
});
