import express, { type Express } from 'express';
import { eventSubjectOf, type BusEvent } from '../shared/bus/bus-event.js';
import { decode } from '../shared/bus/codec.js';
import type { BusSubscription } from '../shared/bus/transport.js';
import { GRANT_CHANGED_EVENT, SIGNING_KEYS_CHANGED_EVENT, TOKEN_REVOKED_EVENT } from '../shared/contracts/broadcasts.js';
import { ApiTokenAuthenticator } from './auth/authenticate-api-token.js';
import { CredentialCache } from './auth/credential-cache.js';
import { FailedAuthLimit } from './auth/failed-auth-limit.js';
import { RefusedTokenCache } from './auth/refused-token-cache.js';
import type { GatewayDeps } from './deps.js';
import { consoleRoutes } from './console/console-routes.js';
import { errorHandler, notFoundHandler } from './errors/error-handler.js';
import { healthRoutes } from './health/route.js';
import { httpMetrics } from './metrics/http-metrics.js';
import { mcpRoutes } from './mcp/mcp-routes.js';
import { requestId } from './middlewares/request-id.js';
import { requestLog } from './middlewares/request-log.js';
import { strictTransportSecurity } from './middlewares/strict-transport-security.js';
import { AccessTokenVerifier } from './oauth/access-token-verifier.js';
import { BusOAuthProvider } from './oauth/bus-oauth-provider.js';
import { ClientMetadataDocuments } from './oauth/client-metadata/client-metadata-documents.js';
import { consentRoutes } from './oauth/consent-routes.js';
import { oauthRoutes } from './oauth/oauth-routes.js';
import { openApiRoutes } from './openapi/route.js';
import { pageErrorHandler } from './pages/page-error-handler.js';
import { limitByCredential, limitByIp } from './rate-limit/rate-limit-middleware.js';
import { sessionRoutes } from './pages/session-routes.js';
import type { ResolvedCredential } from './request-state.js';
import { V1_ENDPOINTS } from './routes/v1/endpoints.js';
import { v1Routes } from './routes/v1/index.js';

export interface GatewayApp {
  app: Express;
  /** Stops listening for bus events. */
  close(): Promise<void>;
}

/** Listens for a broadcast event carrying one id. */
function onEvent(deps: GatewayDeps, event: BusEvent, field: string, act: (id: string) => void): BusSubscription {
  return deps.bus.transport.listen(eventSubjectOf(deps.bus.namespace, event), (data) => {
    const value = (decode(data) as Record<string, unknown>)[field];
    if (typeof value === 'string') act(value);
  });
}

/**
 * The whole HTTP surface of the gateway: the REST API, the OAuth authorization server
 * with its pages, the admin console, and the two tool servers. It holds no business logic: every call goes
 * over the bus.
 */
export function createGatewayApp(deps: GatewayDeps): GatewayApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);
  if (deps.config.trustProxy) app.set('trust proxy', /^\d+$/.test(deps.config.trustProxy) ? Number(deps.config.trustProxy) : deps.config.trustProxy);

  const tokenCache = new CredentialCache<ResolvedCredential>(deps.config.authCacheTtlMs);
  const failedAuth = deps.rateLimits.failedAuth ? new FailedAuthLimit(deps.rateLimits.failedAuth) : null;
  const tokens = new ApiTokenAuthenticator(deps.bus, tokenCache, new RefusedTokenCache(deps.config.authNegativeCacheTtlMs), failedAuth);
  const verifier = new AccessTokenVerifier(deps.bus, deps.publicUrl, deps.config.grantCacheTtlMs);
  const metadataDocuments = new ClientMetadataDocuments({ allowPrivateNetworks: deps.config.oauthClientMetadataAllowPrivateNetworks });
  const provider = new BusOAuthProvider(deps.bus, deps.publicUrl, verifier, metadataDocuments, deps.log);
  const subscriptions = [
    onEvent(deps, TOKEN_REVOKED_EVENT, 'token_id', (id) => tokens.forgetToken(id)),
    onEvent(deps, GRANT_CHANGED_EVENT, 'grant_id', (id) => verifier.forgetGrant(id)),
    onEvent(deps, SIGNING_KEYS_CHANGED_EVENT, 'kid', () => verifier.forgetKeys()),
  ];

  app.use(requestId);
  app.use(requestLog(deps.log));
  app.use(strictTransportSecurity(deps.publicUrl));
  app.use(httpMetrics(deps.metrics));
  app.use(healthRoutes(deps));
  app.use(openApiRoutes(deps, V1_ENDPOINTS));
  // The REST API before the pages: express tries every route in order, and API calls are the hot path.
  const limitCredential = limitByCredential(deps.rateLimits);
  app.use('/v1', v1Routes(deps, tokens, limitCredential));
  app.use(oauthRoutes(deps, provider, verifier));
  app.post('/sign-in', limitByIp(deps.rateLimits.signIn));
  app.use(sessionRoutes(deps));
  app.use(consentRoutes(deps));
  app.use(consoleRoutes(deps, failedAuth));
  app.use(['/sign-in', '/sign-out', '/oauth/consent'], pageErrorHandler(deps.log));
  app.use(mcpRoutes(deps, tokens, verifier, limitCredential));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.log));

  return { app, close: async () => void (await Promise.all(subscriptions.map((s) => s.drain()))) };
}
