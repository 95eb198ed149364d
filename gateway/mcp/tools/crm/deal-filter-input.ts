import { z } from 'zod';
import { createdRangeFilters } from '../../../../shared/contracts/created-range.js';

/** The deal filters that find_deals and count_deals share (query is the REST list's q). */
export const DealFilterInput = {
  query: z.string().min(1).max(100).optional().describe("Words of the deal's name, e.g. \"engine order\": every word must appear, case and accents ignored"),
  stage: z.string().min(1).max(100).optional().describe('Stage name such as "Negotiation" (case does not matter) or a stg_ id'),
  pipeline: z.string().min(1).max(100).optional().describe('Pipeline name or pipe_ id'),
  contact_id: z.string().max(64).optional().describe("con_…: only this contact's deals"),
  ...createdRangeFilters('deals'),
};
