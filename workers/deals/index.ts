import { countDeals, createDeal, deleteDeal, describeDealReferences, getDeal, listDeals, updateDeal } from '../../shared/contracts/deals.js';
import { handle, type WorkerDefinition } from '../runtime/worker-call.js';
import { countDealsHandler } from './count-deals.js';
import { createDealHandler } from './create-deal.js';
import { deleteDealHandler } from './delete-deal.js';
import { describeDealReferencesHandler } from './describe-deal-references.js';
import { getDealHandler } from './get-deal.js';
import { listDealsHandler } from './list-deals.js';
import { updateDealHandler } from './update-deal.js';

/** Deals and where they sit in their pipelines. */
export const dealsWorker: WorkerDefinition = {
  name: 'deals',
  handlers: [
    handle(createDeal, createDealHandler),
    handle(listDeals, listDealsHandler),
    handle(countDeals, countDealsHandler),
    handle(getDeal, getDealHandler),
    handle(updateDeal, updateDealHandler),
    handle(deleteDeal, deleteDealHandler),
    handle(describeDealReferences, describeDealReferencesHandler),
  ],
};
