import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, TimestampQuery } from '../../../../shared/contracts/common.js';
import { Deal, listDeals } from '../../../../shared/contracts/deals.js';
import { defineTool } from '../../tool.js';
import { PageInfo, PagingInput } from '../list-page.js';

export const findDealsTool = defineTool({
  name: 'find_deals',
  title: 'Find deals',
  description:
    'Deals in creation order, filtered by stage (a stage name such as "Negotiation", or a stg_ id), pipeline (name or pipe_ id), contact, or creation date range. Follow next_cursor for more.',
  op: listDeals,
  input: {
    stage: z.string().min(1).max(100).optional().describe('Stage name (case does not matter) or id'),
    pipeline: z.string().min(1).max(100).optional().describe('Pipeline name or id'),
    contact_id: z.string().max(64).optional(),
    created_after: TimestampQuery.optional(),
    created_before: TimestampQuery.optional(),
    ...PagingInput,
  },
  output: z.object({ deals: z.array(Deal), ...PageInfo }),
  opInput: ({ limit, ...filters }) => ({ ...filters, limit: limit ?? DEFAULT_PAGE_SIZE }),
  result: (page) => ({ deals: page.data, has_more: page.has_more, next_cursor: page.next_cursor }),
});
