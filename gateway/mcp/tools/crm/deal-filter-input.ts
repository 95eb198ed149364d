import { DealFilters, listDeals } from '../../../../shared/contracts/deals.js';

const { q, stage, contact_id: contactId, created_after: createdAfter, created_before: createdBefore, created_within: createdWithin } = DealFilters.shape;

/** The deal filters that find_deals and count_deals share: the REST list's (query is its q), and a pipeline by name. */
export const DealFilterInput = {
  query: q,
  stage,
  pipeline: listDeals.input.shape.pipeline,
  contact_id: contactId,
  created_after: createdAfter,
  created_before: createdBefore,
  created_within: createdWithin,
};
