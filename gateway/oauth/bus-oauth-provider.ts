import { createHash, timingSafeEqual } from 'node:crypto';
import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidClientError, InvalidClientMetadataError, InvalidGrantError, InvalidRequestError, InvalidTargetError, OAuthError, UnauthorizedClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { BusClient } from '../../shared/bus/bus-client.js';
import type { Operation, OperationInput, OperationOutput } from '../../shared/bus/operation.js';
import { codeChallenge, CodeVerifier, exchangeCode, getOAuthClient, recordMetadataClient, refreshTokens, registerOAuthClient, revokeOAuthToken, startAuthorization } from '../../shared/contracts/oauth.js';
import { isMetadataClientId } from '../../shared/auth/metadata-client-id.js';
import { newId } from '../../shared/ids.js';
import { MCP_SERVERS } from '../../shared/auth/mcp-servers.js';
import type { McpServerKey } from '../../shared/contracts/oauth.js';
import { cookiePolicy, readCookie } from '../pages/cookies.js';
import type { AccessTokenVerifier } from './access-token-verifier.js';
import type { ClientMetadataDocuments } from './client-metadata/client-metadata-documents.js';
import { InvalidRedirectUriError, isRedirectUriEntry, oauthErrorFrom, type InvalidInputErrors, type OAuthErrorClass } from './oauth-errors.js';
import type { Logger } from '../../shared/logger.js';

/**
 * Whether a client may use refresh tokens: a registration or metadata document that lists
 * grant_types without refresh_token said it will not (RFC 7591 §2), so it gets none and may
 * not refresh (unauthorized_client, RFC 6749 §5.2). One that lists none is not held to the
 * RFC's default (authorization_code alone): clients commonly leave the field out and refresh.
 */
function usesRefreshTokens(client: OAuthClientInformationFull): boolean {
  return client.grant_types === undefined || client.grant_types.includes('refresh_token');
}

/**
 * The SDK's OAuth endpoints run in the gateway; everything they need to remember or sign
 * is done by the tokens worker over the bus. Domain errors become the OAuth errors the
 * SDK turns into RFC 6749 responses; input off a contract becomes `invalid_request`, or
 * at registration `invalid_client_metadata`.
 */
export class BusOAuthProvider implements OAuthServerProvider {
  /** PKCE is checked here, in exchangeAuthorizationCode: the SDK's own check takes any verifier, even one character. */
  readonly skipLocalPkceValidation = true;

  constructor(
    private readonly bus: BusClient,
    private readonly publicUrl: () => string,
    private readonly verifier: AccessTokenVerifier,
    private readonly metadataDocuments: ClientMetadataDocuments,
    readonly log: Logger,
  ) {}

  private async call<Op extends Operation>(op: Op, input: OperationInput<Op>, invalidInput: OAuthErrorClass | InvalidInputErrors = InvalidRequestError): Promise<OperationOutput<Op>> {
    try {
      return (await this.bus.call(op, input, { context: null, requestId: newId('request') })).result;
    } catch (error) {
      throw oauthErrorFrom(error, invalidInput, this.log);
    }
  }

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: async (clientId) => (await this.findClient(clientId))?.client,
      registerClient: async (client) => {
        const invalid = { otherwise: InvalidClientMetadataError, forParam: (param: string) => (isRedirectUriEntry(param.split('.')) ? InvalidRedirectUriError : undefined) };
        const registered = await this.call(registerOAuthClient, { client: client as Record<string, unknown> }, invalid);
        return registered.client as OAuthClientInformationFull;
      },
    };
  }

  /**
   * A client, and whether the user of `sessionToken` (the browser's session, at /oauth/authorize)
   * has or had a grant to it; undefined when unknown. A URL client id is resolved through its
   * metadata document (cached as its server allows) at every use, at the token endpoint too,
   * so a client whose document is gone or now refused stops working; the document is
   * recorded with the client's row each time.
   */
  async findClient(clientId: string, sessionToken?: string): Promise<{ client: OAuthClientInformationFull; userGranted: boolean } | undefined> {
    if (isMetadataClientId(clientId)) return this.metadataClient(clientId, sessionToken);
    const { client, user_granted } = await this.call(getOAuthClient, { client_id: clientId, session_token: sessionToken });
    return client ? { client: client as OAuthClientInformationFull, userGranted: user_granted } : undefined;
  }

  private async metadataClient(clientId: string, sessionToken: string | undefined): Promise<{ client: OAuthClientInformationFull; userGranted: boolean }> {
    const document = await this.metadataDocuments.resolve(clientId);
    try {
      const { client, user_granted } = await this.call(recordMetadataClient, { client: document, session_token: sessionToken }, InvalidClientMetadataError);
      return { client: client as OAuthClientInformationFull, userGranted: user_granted };
    } catch (error) {
      // The worker's own check of the redirect URIs: a fault of the document, not of the request.
      if (error instanceof OAuthError && error.errorCode === 'invalid_client_metadata') {
        throw new InvalidClientError(`The client metadata document at ${clientId} is not valid: ${error.message}`);
      }
      throw error;
    }
  }

  /** Which server a resource indicator (RFC 8707) names; every authorization is for exactly one. */
  serverOf(resource: URL | undefined): McpServerKey {
    const wanted = resource?.href.replace(/\/+$/, '');
    const server = (Object.keys(MCP_SERVERS) as McpServerKey[]).find((key) => `${this.publicUrl()}${MCP_SERVERS[key].path}` === wanted);
    if (!server) {
      throw new InvalidTargetError(`resource must name one of the tool servers: ${this.publicUrl()}/mcp/crm or ${this.publicUrl()}/mcp/studio`);
    }
    return server;
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const server = this.serverOf(params.resource);
    const { request_id } = await this.call(startAuthorization, {
      client_id: client.client_id,
      redirect_uri: params.redirectUri,
      code_challenge: params.codeChallenge,
      state: params.state ?? null,
      scopes: params.scopes ?? [],
      server,
      resource: `${this.publicUrl()}${MCP_SERVERS[server].path}`,
    });
    // Signed in already: straight to consent (which checks the session, and sends the browser to sign in if it has ended).
    const consent = `/oauth/consent?request=${encodeURIComponent(request_id)}`;
    const signedIn = res.req && readCookie(res.req, cookiePolicy(this.publicUrl()).session) !== undefined;
    res.redirect(302, signedIn ? consent : `/sign-in?next=${encodeURIComponent(consent)}`);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    return (await this.call(codeChallenge, { client_id: client.client_id, code: authorizationCode })).code_challenge;
  }

  /**
   * The verifier must have RFC 7636's form (43 to 128 unreserved characters) before its S256
   * hash is compared with the code's challenge; a wrong one leaves the code as it was, so
   * whoever intercepted a code without its verifier can neither use it nor burn it.
   */
  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, verifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    if (resource) this.serverOf(resource);
    const parsed = CodeVerifier.safeParse(verifier);
    if (!parsed.success) throw new InvalidRequestError(parsed.error.issues[0]?.message ?? 'code_verifier is not valid');
    const expected = Buffer.from(await this.challengeForAuthorizationCode(client, code));
    const actual = Buffer.from(createHash('sha256').update(parsed.data).digest('base64url'));
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw new InvalidGrantError('code_verifier does not match the challenge');
    const input = { client_id: client.client_id, code, redirect_uri: redirectUri, resource: resource?.href, issuer: this.publicUrl(), issue_refresh_token: usesRefreshTokens(client) };
    return this.call(exchangeCode, input);
  }

  /** A resource that names neither tool server is invalid_target (RFC 8707 §2.2), as at /oauth/authorize; the other server's is the grant's mismatch, invalid_grant. */
  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    if (!usesRefreshTokens(client)) throw new UnauthorizedClientError('This client registered grant_types without refresh_token, so it cannot refresh; authorize again.');
    if (resource) this.serverOf(resource);
    return this.call(refreshTokens, { client_id: client.client_id, refresh_token: refreshToken, scopes, resource: resource?.href, issuer: this.publicUrl() });
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const input = { client_id: client.client_id, token: request.token, issuer: this.publicUrl() };
    // RFC 7009 §2.2: a token we could not have issued (too long to be one) is unknown, and an unknown token is a 200.
    if (!revokeOAuthToken.input.safeParse(input).success) return;
    await this.call(revokeOAuthToken, input);
  }

  /** Not used by the endpoints mounted here (the tool servers verify with their own audience). */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const crm = `${this.publicUrl()}/mcp/crm`;
    const claims = await this.verifier.verify(token, crm);
    return { token, clientId: claims.clientId, scopes: claims.scopes, expiresAt: claims.expiresAt, resource: new URL(crm) };
  }
}
