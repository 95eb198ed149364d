import { Router } from 'express';
import { describeToken } from '../../../../shared/contracts/tokens.js';
import { callWorker } from '../../../call-worker.js';
import type { GatewayDeps } from '../../../deps.js';

/** GET /v1/me: needs only a valid token. */
export function meRoutes({ bus }: GatewayDeps): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const { result } = await callWorker(bus, req, describeToken, {});
    res.json(result);
  });
  return router;
}
