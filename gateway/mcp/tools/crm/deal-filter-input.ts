import { DealFilters, listDeals } from '../../../../shared/contracts/deals.js';

const { q, stage, contact_id: contactId, owner_id: ownerId, created_after: createdAfter, created_before: createdBefore, created_within: createdWithin } = DealFilters.shape;

/** The deal filters that find_deals and count_deals share: the REST list's (query is its q, owner_id its owner_id), and a pipeline by name. */
export const DealFilterInput = {
  query: q,
  stage,
  pipeline: listDeals.input.shape.pipeline,
  contact_id: contactId,
  owner_id: ownerId,
  created_after: createdAfter,
  created_before: createdBefore,
  created_within: createdWithin,
};
