import { z } from 'zod';
import { CreationSort, Cursor, PageLimitQuery } from '../../../../shared/contracts/common.js';
import { CreateDealInput, DealFilters, UpdateDealFields } from '../../../../shared/contracts/deals.js';
import { pathId } from '../../../api/path-id.js';

export const DealIdParams = z.strictObject({ id: pathId('deal_') });

export const ListDealsQuery = z.strictObject({
  limit: PageLimitQuery,
  cursor: Cursor.optional().describe('Taken from links.next'),
  sort: CreationSort.optional(),
  ...DealFilters.shape,
});

export const CreateDealBody = CreateDealInput;
export const UpdateDealBody = UpdateDealFields;
