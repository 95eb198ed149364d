import { Router } from 'express';
import { createToken, listTokens, revokeToken } from '../../../../shared/contracts/tokens.js';
import { listEnvelope, nextLink } from '../../../api/list-envelope.js';
import { mountEndpoint } from '../../../api/mount-endpoint.js';
import { callWorker } from '../../../call-worker.js';
import type { GatewayDeps } from '../../../deps.js';
import { createTokenEndpoint, listTokensEndpoint, revokeTokenEndpoint } from './endpoints.js';

export function tokensRoutes({ bus, publicUrl }: GatewayDeps): Router {
  const router = Router();

  mountEndpoint(router, listTokensEndpoint, async ({ query, req }) => {
    const { result } = await callWorker(bus, req, listTokens, query);
    return listEnvelope(result, nextLink(publicUrl(), listTokensEndpoint.path, query, result.next_cursor));
  });

  mountEndpoint(router, createTokenEndpoint, async ({ body, req, res }) => {
    const { result } = await callWorker(bus, req, createToken, body);
    res.location(`${publicUrl()}/v1/tokens/${result.id}`);
    res.set('Cache-Control', 'no-store');
    return result;
  });

  mountEndpoint(router, revokeTokenEndpoint, async ({ params, req }) => (await callWorker(bus, req, revokeToken, params)).result);

  return router;
}
