import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { InvalidClientMetadataError, InvalidRequestError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MCP_SERVERS } from '../../shared/auth/mcp-servers.js';
import { SUPPORTED_GRANT_TYPES, SUPPORTED_RESPONSE_TYPES, type McpServerKey } from '../../shared/contracts/oauth.js';
import type { GatewayDeps } from '../deps.js';
import { FORWARDING_CHECKS_OFF } from '../rate-limit/forwarding-checks.js';
import { lazyHandler } from '../lazy-handler.js';
import type { AccessTokenVerifier } from './access-token-verifier.js';
import { authorizeRoute } from './authorize-route.js';
import type { BusOAuthProvider } from './bus-oauth-provider.js';
import { formWithoutEmptyParameters } from './empty-parameters.js';
import { formBodyRequired } from './form-body-required.js';
import { InvalidRedirectUriError, isRedirectUriEntry, oauthBodyError, type OAuthErrorClass } from './oauth-errors.js';
import { oneResourceInForm } from './one-resource.js';
import { publicClientAuthentication } from './public-client-authentication.js';
import { unavailableAs503 } from './unavailable-status.js';
import { readableSchemaErrors } from './readable-schema-errors.js';
import { describedInAscii } from './error-description.js';

/**
 * RFC 8414 metadata of the authorization server that the gateway is; `iss` in every
 * authorization response (RFC 9207); client ids that are metadata document URLs (MCP 2025-11-25).
 */
export function authorizationServerMetadata(issuer: string): OAuthMetadata & { authorization_response_iss_parameter_supported: boolean } {
  const scopes = [...new Set(Object.values(MCP_SERVERS).flatMap((s) => [...s.readScopes, ...s.writeScopes]))];
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: [...SUPPORTED_RESPONSE_TYPES],
    // RFC 8414 §2: left out, it would mean ["query", "fragment"]; every answer goes in the query.
    response_modes_supported: ['query'],
    grant_types_supported: [...SUPPORTED_GRANT_TYPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: scopes,
    authorization_response_iss_parameter_supported: true,
    // An https URL may be the client_id: the client's metadata document is fetched from it (client-metadata/).
    client_id_metadata_document_supported: true,
  };
}

/** RFC 9728 metadata of one tool server: its identifier, its authorization server, its scopes. */
export function protectedResourceMetadata(issuer: string, server: McpServerKey): OAuthProtectedResourceMetadata {
  const def = MCP_SERVERS[server];
  return {
    resource: `${issuer}${def.path}`,
    authorization_servers: [issuer],
    scopes_supported: [...def.readScopes, ...def.writeScopes],
    bearer_methods_supported: ['header'],
    resource_name: def.title,
  };
}

/** A body the SDK's parser refused, answered as the endpoint's OAuth error; anything else goes on. */
function bodyErrors(invalidBody: OAuthErrorClass): ErrorRequestHandler {
  return (error, _req, res, next) => {
    const refused = oauthBodyError(error, invalidBody);
    if (!refused) return next(error);
    res.status(refused.status).set('Cache-Control', 'no-store').json(refused.error.toResponseObject());
  };
}

/**
 * Token, revocation and registration answers are never cached (RFC 6749 §5.1), their errors
 * included: the SDK sets no-store only in its handlers, not on its client check, its method
 * check or its rate limit.
 */
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/**
 * The OAuth 2.1 endpoints under /oauth (the SDK's handlers with our provider), the
 * metadata documents, and the JWKS that access tokens verify against.
 */
export function oauthRoutes(deps: GatewayDeps, provider: BusOAuthProvider, verifier: AccessTokenVerifier): Router {
  const router = Router();
  const issuer = () => deps.publicUrl();

  // The SDK's own default (50 per 15 minutes) would hold every agent behind one address to 50 refreshes.
  const perMinute = deps.config.rateLimits.oauthPerMinute;
  const rateLimit = perMinute === 0 ? (false as const) : { windowMs: 60_000, limit: perMinute, ...FORWARDING_CHECKS_OFF };
  router.use('/oauth/authorize', authorizeRoute(provider, issuer, rateLimit));
  router.use('/oauth/token', noStore, describedInAscii(), unavailableAs503(), readableSchemaErrors(), formWithoutEmptyParameters(), formBodyRequired(), publicClientAuthentication(), oneResourceInForm(), tokenHandler({ provider, rateLimit }), bodyErrors(InvalidRequestError));
  router.use(
    '/oauth/register',
    noStore,
    describedInAscii(),
    unavailableAs503(),
    readableSchemaErrors((path) => (isRedirectUriEntry(path) ? InvalidRedirectUriError.errorCode : undefined)),
    clientRegistrationHandler({
      clientsStore: provider.clientsStore,
      clientSecretExpirySeconds: 0,
      rateLimit: { windowMs: 60 * 60_000, max: deps.config.oauthRegistrationsPerHour, ...FORWARDING_CHECKS_OFF },
    }),
    bodyErrors(InvalidClientMetadataError),
  );
  router.use('/oauth/revoke', noStore, describedInAscii(), unavailableAs503(), readableSchemaErrors(), formWithoutEmptyParameters(), formBodyRequired(), publicClientAuthentication(), revocationHandler({ provider, rateLimit }), bodyErrors(InvalidRequestError));

  router.use('/.well-known/oauth-authorization-server', lazyHandler(() => metadataHandler(authorizationServerMetadata(issuer()))));
  for (const server of Object.keys(MCP_SERVERS) as McpServerKey[]) {
    router.use(`/.well-known/oauth-protected-resource/mcp/${server}`, lazyHandler(() => metadataHandler(protectedResourceMetadata(issuer(), server))));
  }
  router.get('/.well-known/jwks.json', async (_req, res) => {
    res.set('Cache-Control', 'public, max-age=60').json(await verifier.publishedKeys());
  });
  return router;
}
