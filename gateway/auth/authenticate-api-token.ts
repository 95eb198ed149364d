import type { RequestHandler } from 'express';
import type { BusClient } from '../../shared/bus/bus-client.js';
import { authenticateToken } from '../../shared/contracts/tokens.js';
import { CrmError, UnauthenticatedError } from '../../shared/errors.js';
import type { ResolvedCredential } from '../request-state.js';
import { bearerCredential } from './bearer.js';
import { CredentialCache } from './credential-cache.js';

/** Resolves a token by asking the tokens worker; answers for the same token are reused for a few seconds. */
export class ApiTokenAuthenticator {
  constructor(
    private readonly bus: BusClient,
    readonly cache: CredentialCache<ResolvedCredential>,
  ) {}

  async resolve(token: string, requestId: string): Promise<ResolvedCredential> {
    const key = CredentialCache.keyOf(token);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const { result } = await this.bus.call(authenticateToken, { token }, { context: null, requestId }).catch((error: unknown) => {
      // Not even the shape of a token (e.g. far too long): no token of ours, so a 401 like any other.
      if (error instanceof CrmError && error.code === 'validation_failed') throw new UnauthenticatedError('The bearer token is not a valid API token.');
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
    this.cache.set(key, credential, result.expires_at ? Date.parse(result.expires_at) : undefined);
    return credential;
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
        req.credential = await this.resolve(token, req.requestId);
      } catch (error) {
        if (error instanceof UnauthenticatedError) res.set('WWW-Authenticate', 'Bearer realm="crm", error="invalid_token"');
        throw error;
      }
      next();
    };
  }
}
