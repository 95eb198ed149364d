import { Router } from 'express';
import { describeToken } from '../../../../shared/contracts/tokens.js';
import { mountEndpoint } from '../../../api/mount-endpoint.js';
import { callWorker } from '../../../call-worker.js';
import type { GatewayDeps } from '../../../deps.js';
import { getMeEndpoint } from './endpoints.js';

export function meRoutes({ bus }: GatewayDeps): Router {
  const router = Router();
  mountEndpoint(router, getMeEndpoint, async ({ req }) => (await callWorker(bus, req, describeToken, {})).result);
  return router;
}
