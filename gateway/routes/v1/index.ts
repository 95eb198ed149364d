import { Router, type RequestHandler } from 'express';
import type { ApiTokenAuthenticator } from '../../auth/authenticate-api-token.js';
import type { GatewayDeps } from '../../deps.js';
import { notFoundHandler } from '../../errors/error-handler.js';
import { jsonBody } from '../../middlewares/json-body.js';
import { contactsRoutes } from './contacts/route.js';
import { customFieldsRoutes } from './custom-fields/route.js';
import { dealsRoutes } from './deals/route.js';
import { meRoutes } from './me/route.js';
import { pipelinesRoutes } from './pipelines/route.js';
import { tokensRoutes } from './tokens/route.js';

/** The REST API, version 1. Every route needs an API token. */
export function v1Routes(deps: GatewayDeps, tokens: ApiTokenAuthenticator, rateLimit: RequestHandler): Router {
  const router = Router();
  router.use(tokens.middleware());
  router.use(rateLimit);
  router.use(...jsonBody(deps.config.bodyLimit));
  router.use(meRoutes(deps));
  router.use(contactsRoutes(deps));
  router.use(dealsRoutes(deps));
  router.use(pipelinesRoutes(deps));
  router.use(customFieldsRoutes(deps));
  router.use(tokensRoutes(deps));
  router.use(notFoundHandler);
  return router;
}
