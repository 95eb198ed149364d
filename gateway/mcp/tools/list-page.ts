import { z } from 'zod';
import { CreationSort, Cursor, PageLimit } from '../../../shared/contracts/common.js';

/** Paging arguments of the find tools, the REST lists' own: limit (default 25, at most 100) and the cursor of the previous answer. */
export const PagingInput = {
  limit: PageLimit.optional().describe('How many to return, 1 to 100 (default 25)'),
  cursor: Cursor.optional().describe('next_cursor from the previous call, to continue'),
};

/** The order of find_contacts and find_deals (the counts have none): oldest_first by default, or newest_first. */
export const SortInput = {
  sort: CreationSort.optional(),
};

export const PageInfo = {
  has_more: z.boolean(),
  next_cursor: z.string().nullable().describe('Pass as cursor to get the next page; null on the last page'),
};
