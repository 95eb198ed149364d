import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common.js';
import { AppliedRange } from '../../../../shared/contracts/created-range.js';
import { listDeals } from '../../../../shared/contracts/deals.js';
import { defineTool } from '../../tool.js';
import { PageInfo, PagingInput, SortInput } from '../list-page.js';
import { DealFilterInput } from './deal-filter-input.js';
import { DealForAgents, dealsForAgents } from './deal-for-agents.js';

export const findDealsTool = defineTool({
  name: 'find_deals',
  title: 'Find deals',
  description:
    'Deals, oldest first (or sort: newest_first, e.g. for the latest deals), each with its stage and pipeline names and its contact (name, e-mail, phone), filtered by name words, stage (a name such as "Negotiation", or a stg_ id), pipeline (name or pipe_ id), contact, owner (owner_id, a member usr_ id; whoami authorized_by.id is your own), or creation date (a day, an instant, or created_within such as last_week, in the workspace time zone). Follow next_cursor for more.',
  op: listDeals,
  input: { ...DealFilterInput, ...SortInput, ...PagingInput },
  output: z.object({ deals: z.array(DealForAgents), ...PageInfo, applied_range: AppliedRange }),
  opInput: ({ query, limit, ...filters }) => ({ ...filters, q: query, limit: limit ?? DEFAULT_PAGE_SIZE }),
  result: async (page, _server, call) => ({
    deals: await dealsForAgents(page.data, call),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
    applied_range: page.applied_range,
  }),
});
