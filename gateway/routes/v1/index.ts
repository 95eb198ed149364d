import { Router } from 'express';
import type { ApiTokenAuthenticator } from '../../auth/authenticate-api-token.js';
import type { GatewayDeps } from '../../deps.js';
import { notFoundHandler } from '../../errors/error-handler.js';
import { jsonBody } from '../../middlewares/json-body.js';
import { contactsRoutes } from './contacts/route.js';
import { meRoutes } from './me/route.js';

/** The REST API, version 1. Every route needs an API token. */
export function v1Routes(deps: GatewayDeps, tokens: ApiTokenAuthenticator): Router {
  const router = Router();
  router.use(tokens.middleware());
  router.use(...jsonBody(deps.config.bodyLimit));
  router.use('/me', meRoutes(deps));
  router.use('/contacts', contactsRoutes(deps));
  router.use(notFoundHandler);
  return router;
}
