import type { RequestHandler } from 'express';
import { looksLikeApiToken } from '../../shared/auth/api-token-shape.js';
import type { BusClient } from '../../shared/bus/bus-client.js';
import { authenticateToken } from '../../shared/contracts/tokens.js';
import { CrmError, UnauthenticatedError } from '../../shared/errors.js';
import type { ResolvedCredential } from '../request-state.js';
import { bearerCredential } from './bearer.js';
import { CredentialCache } from './credential-cache.js';
import { RECENTLY_VALID_MS, type FailedAuthLimit } from './failed-auth-limit.js';
import type { RefusedTokenCache } from './refused-token-cache.js';

/** Who presents the token: the request's id for the bus call, its client address for the limit. */
export interface TokenPresenter {
  requestId: string;
  ip?: string | undefined;
}

const MALFORMED = 'The bearer token is not a valid API token.';

/**
 * Resolves a token by asking the tokens worker; answers for the same token are reused for a
 * few seconds, refusals too, and an address that keeps presenting bad tokens is stopped
 * before it costs a bus call.
 */
export class ApiTokenAuthenticator {
  /** Tokens found valid lately (by SHA-256), which pass their address's block for refused tokens. */
  private readonly recent = new CredentialCache<{ tokenId?: string }>(RECENTLY_VALID_MS);

  constructor(
    private readonly bus: BusClient,
    readonly cache: CredentialCache<ResolvedCredential>,
    private readonly refused: RefusedTokenCache,
    private readonly failures: FailedAuthLimit | null,
  ) {}

  /** A revoked token: out of the positive cache, and no longer past its address's block for refused tokens. */
  forgetToken(tokenId: string): void {
    this.cache.evictToken(tokenId);
    this.recent.evictToken(tokenId);
  }

  async resolve(token: string, presenter: TokenPresenter): Promise<ResolvedCredential> {
    const key = CredentialCache.keyOf(token);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const ip = presenter.ip ?? 'unknown';
    if (!this.recent.get(key)) this.failures?.check(ip);
    const refusal = this.refused.get(key) ?? (looksLikeApiToken(token) ? undefined : MALFORMED);
    if (refusal !== undefined) return this.refuse(ip, refusal);

    const { result } = await this.bus.call(authenticateToken, { token }, { context: null, requestId: presenter.requestId }).catch(async (error: unknown) => {
      // Unknown, revoked or expired: remembered, and counted against the address.
      if (error instanceof CrmError && error.code === 'unauthenticated') {
        this.refused.set(key, error.message);
        // Revoked or expired since it was valid (a revocation's broadcast missed): no longer past the block.
        this.recent.delete(key);
        return this.refuse(ip, error.message);
      }
      throw error;
    });
    const credential: ResolvedCredential = {
      kind: 'api_token',
      workspaceId: result.workspace_id,
      scopes: result.scopes,
      tokenId: result.token_id,
      context: {
        workspace_id: result.workspace_id,
        principal: { type: 'token', id: result.token_id, scopes: result.scopes },
        // An API token reads company-wide.
        visibility: 'all',
      },
    };
    const notAfter = result.expires_at ? Date.parse(result.expires_at) : undefined;
    this.cache.set(key, credential, notAfter);
    if (this.failures) this.recent.set(key, { tokenId: result.token_id }, notAfter);
    return credential;
  }

  /** Counts the refusal against the address (a 429 past the limit), then refuses. */
  private async refuse(ip: string, reason: string): Promise<never> {
    await this.failures?.record(ip);
    throw new UnauthenticatedError(reason);
  }

  /** Express middleware for the REST API: a valid API token is required. */
  middleware(): RequestHandler {
    return async (req, res, next) => {
      const token = bearerCredential(req);
      if (!token) {
        res.set('WWW-Authenticate', 'Bearer realm="crm"');
        throw new UnauthenticatedError('Send an API token as "Authorization: Bearer sk_live_…".');
      }
      try {
        req.credential = await this.resolve(token, req);
      } catch (error) {
        if (error instanceof UnauthenticatedError) res.set('WWW-Authenticate', 'Bearer realm="crm", error="invalid_token"');
        throw error;
      }
      next();
    };
  }
}
