import { Router, type RequestHandler } from 'express';
import { mountMethodNotAllowed } from '../../api/method-not-allowed.js';
import { mountEndpoint } from '../../api/mount-endpoint.js';
import type { ApiTokenAuthenticator } from '../../auth/authenticate-api-token.js';
import type { GatewayDeps } from '../../deps.js';
import { notFoundHandler } from '../../errors/error-handler.js';
import { acceptsJson } from '../../middlewares/accepts-json.js';
import { jsonBody } from '../../middlewares/json-body.js';
import { noStore } from '../../middlewares/no-store.js';
import { V1_ENDPOINTS } from './endpoints.js';

/** The REST API, version 1: every endpoint of the one table. Every route needs an API token. */
export function v1Routes(deps: GatewayDeps, tokens: ApiTokenAuthenticator, rateLimit: RequestHandler): Router {
  const router = Router();
  router.use(noStore);
  router.use(tokens.middleware());
  router.use(rateLimit);
  router.use(acceptsJson);
  router.use(...jsonBody(deps.config.bodyLimit));
  for (const endpoint of V1_ENDPOINTS) mountEndpoint(router, endpoint, deps);
  mountMethodNotAllowed(router, V1_ENDPOINTS);
  router.use(notFoundHandler);
  return router;
}
