import express, { type Express } from 'express';
import { TOKEN_REVOKED_EVENT } from '../shared/contracts/tokens.js';
import { decode } from '../shared/bus/codec.js';
import { ApiTokenAuthenticator } from './auth/authenticate-api-token.js';
import { CredentialCache } from './auth/credential-cache.js';
import type { GatewayDeps } from './deps.js';
import { errorHandler, notFoundHandler } from './errors/error-handler.js';
import { healthRoutes } from './health/route.js';
import { requestId } from './middlewares/request-id.js';
import { requestLog } from './middlewares/request-log.js';
import type { ResolvedCredential } from './request-state.js';
import { openApiRoutes } from './openapi/route.js';
import { V1_ENDPOINTS } from './routes/v1/endpoints.js';
import { v1Routes } from './routes/v1/index.js';
import type { BusSubscription } from '../shared/bus/transport.js';

export interface GatewayApp {
  app: Express;
  /** Stops listening for bus events. */
  close(): Promise<void>;
}

/** The whole HTTP surface of the gateway. It holds no business logic: every call goes over the bus. */
export function createGatewayApp(deps: GatewayDeps): GatewayApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);

  const tokenCache = new CredentialCache<ResolvedCredential>(deps.config.authCacheTtlMs);
  const tokens = new ApiTokenAuthenticator(deps.bus, tokenCache);
  const revocations: BusSubscription = deps.bus.transport.listen(`${deps.bus.namespace}.${TOKEN_REVOKED_EVENT}`, (data) => {
    const event = decode(data) as { token_id?: unknown };
    if (typeof event.token_id === 'string') tokenCache.evictToken(event.token_id);
  });

  app.use(requestId);
  app.use(requestLog(deps.log));
  app.use(healthRoutes(deps));
  app.use(openApiRoutes(deps, V1_ENDPOINTS));
  app.use('/v1', v1Routes(deps, tokens));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));

  return { app, close: () => revocations.drain() };
}
