import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { rateLimit, type Options as RateLimitOptions } from 'express-rate-limit';
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { InvalidClientError, InvalidRequestError, OAuthError, ServerError, TemporarilyUnavailableError, TooManyRequestsError, UnsupportedResponseTypeError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import { isMetadataClientId } from '../../shared/auth/metadata-client-id.js';
import { ClientId, CodeChallenge, MAX_REDIRECT_URI_LENGTH, Secret } from '../../shared/contracts/oauth.js';
import { cookiePolicy, readCookie } from '../pages/cookies.js';
import { messagePage } from '../pages/message-page.js';
import { sendPage } from '../pages/session-routes.js';
import { errorRedirect } from './authorization-response.js';
import { requireOneResource } from './one-resource.js';
import { scopeValues } from './scope-parameter.js';
import type { BusOAuthProvider } from './bus-oauth-provider.js';
import { withoutEmptyParameters } from './empty-parameters.js';
import { oauthBodyError, unexplainedServerError } from './oauth-errors.js';

const ClientParams = z.object({
  client_id: ClientId,
  redirect_uri: z.string().max(MAX_REDIRECT_URI_LENGTH).refine((v) => URL.canParse(v), 'redirect_uri must be a valid URL').optional(),
});

/** What a valid authorization request carries besides its client (OAuth 2.1: PKCE with S256 only; the tokens worker's own limits first). */
const RequestParams = z.object({
  response_type: z.literal('code'),
  code_challenge: CodeChallenge,
  code_challenge_method: z.literal('S256'),
  // Bounded by scopeValues (values and their lengths, as invalid_scope) and the request's own size.
  scope: z.string().optional(),
  state: z.string().max(1000).optional(),
  resource: z.url().optional(),
});

function statusOf(error: OAuthError): number {
  if (error instanceof ServerError) return 500;
  if (error instanceof TemporarilyUnavailableError) return 503;
  return 400;
}

/** The error on our own page: for requests whose redirect URI is not (yet) trusted with it. */
function showError(res: Response, error: OAuthError, status = statusOf(error)): void {
  sendPage(res, messagePage('This sign-in request cannot go on', `${error.message} (${error.errorCode}). Start again from your client.`), status);
}

/**
 * The registered redirect URI this request names, or the only one when it names none. A
 * client described by a metadata document gets exact matches only: its document lists
 * every URI it uses (RFC 8252's loopback port leeway is for registered native clients).
 */
function redirectUriOf(client: OAuthClientInformationFull, requested: string | undefined): string {
  if (requested !== undefined) {
    // Registration refuses a fragment; the loopback match (any port) compares no fragment, so it is refused here (RFC 6749 §3.1.2).
    if (requested.includes('#')) throw new InvalidRequestError('redirect_uri must not include a fragment (#)');
    const matches = isMetadataClientId(client.client_id) ? (registered: string) => registered === requested : (registered: string) => redirectUriMatches(requested, registered);
    if (!client.redirect_uris.some(matches)) {
      throw new InvalidRequestError(isMetadataClientId(client.client_id) ? "redirect_uri is not one of the redirect_uris of the client's metadata document" : 'Unregistered redirect_uri');
    }
    return requested;
  }
  if (client.redirect_uris.length === 1) return client.redirect_uris[0] as string;
  throw new InvalidRequestError('redirect_uri must be specified when client has multiple registered URIs');
}

/**
 * A response_type the server does not do (the implicit `token`, OpenID's hybrids) is
 * unsupported_response_type (RFC 6749 §4.1.2.1), which tells the client what is wrong,
 * rather than invalid_request; a missing or repeated one stays invalid_request.
 */
function requireCodeResponseType(params: unknown): void {
  const responseType = (params as Record<string, unknown> | null | undefined)?.response_type;
  if (typeof responseType === 'string' && responseType !== 'code') {
    throw new UnsupportedResponseTypeError(`response_type "${responseType.slice(0, 50)}" is not supported: this server issues authorization codes only (response_type=code, with PKCE)`);
  }
}

/** The browser's session token, if it sent one that could be one. */
function sessionTokenOf(req: Request, issuer: string): string | undefined {
  const token = readCookie(req, cookiePolicy(issuer).session);
  return Secret.safeParse(token).success ? token : undefined;
}

/**
 * `/oauth/authorize`. Errors about the client or its redirect URI are shown here, never
 * redirected. Other errors go back to the client only if the browser's signed-in user has
 * (or had) a grant to it: anyone can register any https redirect URI and approve the client
 * for themselves, and redirecting every visitor's errors there would make this server an
 * open redirector (RFC 9700 §4.11.2). Every redirect carries `iss` (RFC 9207).
 */
export function authorizeRoute(provider: BusOAuthProvider, issuer: () => string, perAddress: Partial<RateLimitOptions> | false): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '10kb' }));
  if (perAddress) {
    router.use(
      rateLimit({
        ...perAddress,
        standardHeaders: true,
        legacyHeaders: false,
        handler: (_req, res) => showError(res, new TooManyRequestsError('Too many authorization requests from this address'), 429),
      }),
    );
  }
  router.all('/', async (req: Request, res: Response) => {
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.set('Allow', 'GET, POST');
      return showError(res, new InvalidRequestError(`The method ${req.method} is not allowed`), 405);
    }
    res.set('Cache-Control', 'no-store');
    // A POST that is no form (JSON, say) has no parameters: each then reads as missing.
    const params = withoutEmptyParameters((req.method === 'POST' ? req.body : req.query) ?? {});

    let client: OAuthClientInformationFull;
    let userGranted: boolean;
    let redirectUri: string;
    try {
      const parsed = ClientParams.safeParse(params);
      if (!parsed.success) throw new InvalidRequestError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const found = await provider.findClient(parsed.data.client_id, sessionTokenOf(req, issuer()));
      if (!found) throw new InvalidClientError('Invalid client_id');
      ({ client, userGranted } = found);
      redirectUri = redirectUriOf(client, parsed.data.redirect_uri);
    } catch (error) {
      return showError(res, error instanceof OAuthError ? error : unexplainedServerError(error, provider.log));
    }

    let state: string | undefined;
    try {
      const parsed = RequestParams.safeParse(params);
      if (parsed.success) state = parsed.data.state;
      else {
        const raw = (params as Record<string, unknown> | undefined)?.state;
        state = typeof raw === 'string' ? raw.slice(0, 1000) : undefined;
        requireOneResource(params);
        requireCodeResponseType(params);
        throw new InvalidRequestError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      }
      const { scope, code_challenge, resource } = parsed.data;
      await provider.authorize(
        client,
        { state, scopes: scopeValues(scope), redirectUri, codeChallenge: code_challenge, resource: resource ? new URL(resource) : undefined },
        res,
      );
    } catch (error) {
      const oauthError = error instanceof OAuthError ? error : unexplainedServerError(error, provider.log);
      if (!userGranted) return showError(res, oauthError);
      res.redirect(302, errorRedirect(redirectUri, oauthError, state, issuer()));
    }
  });
  // A POSTed request whose form the parser refused (too large, too many fields): nothing in it can be trusted, so our own page.
  const refusedBody: ErrorRequestHandler = (error, _req, res, next) => {
    const refused = oauthBodyError(error, InvalidRequestError);
    if (!refused) return next(error);
    showError(res, refused.error, refused.status);
  };
  router.use(refusedBody);
  return router;
}
