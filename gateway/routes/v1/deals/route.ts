import { Router } from 'express';
import { createDeal, deleteDeal, getDeal, listDeals, updateDeal } from '../../../../shared/contracts/deals.js';
import { listEnvelope, nextLink } from '../../../api/list-envelope.js';
import { mountEndpoint } from '../../../api/mount-endpoint.js';
import { callWorker } from '../../../call-worker.js';
import type { GatewayDeps } from '../../../deps.js';
import { createDealEndpoint, deleteDealEndpoint, getDealEndpoint, listDealsEndpoint, updateDealEndpoint } from './endpoints.js';

export function dealsRoutes({ bus, publicUrl }: GatewayDeps): Router {
  const router = Router();

  mountEndpoint(router, listDealsEndpoint, async ({ query, req }) => {
    const { result } = await callWorker(bus, req, listDeals, query);
    return listEnvelope(result, nextLink(publicUrl(), listDealsEndpoint.path, query, result.next_cursor));
  });

  mountEndpoint(router, createDealEndpoint, async ({ body, idempotencyKey, req, res }) => {
    const { result, replayed } = await callWorker(bus, req, createDeal, body, { idempotencyKey });
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.location(`${publicUrl()}/v1/deals/${result.id}`);
    return result;
  });

  mountEndpoint(router, getDealEndpoint, async ({ params, req }) => (await callWorker(bus, req, getDeal, params)).result);

  mountEndpoint(router, updateDealEndpoint, async ({ params, body, idempotencyKey, req, res }) => {
    const { result, replayed } = await callWorker(bus, req, updateDeal, { ...body, id: params.id }, { idempotencyKey });
    if (replayed) res.set('Idempotent-Replayed', 'true');
    return result;
  });

  mountEndpoint(router, deleteDealEndpoint, async ({ params, req }) => (await callWorker(bus, req, deleteDeal, params)).result);

  return router;
}
