import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { BusClient } from '../../shared/bus/bus-client.js';
import { Scope } from '../../shared/auth/scopes.js';
import type { OperationOutput } from '../../shared/bus/operation.js';
import { grantStatus, jwks } from '../../shared/contracts/oauth.js';
import { UnauthenticatedError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';

export interface VerifiedAccessToken {
  userId: string;
  clientId: string;
  workspaceId: string;
  grantId: string;
  scopes: Scope[];
  visibility: 'all' | 'owned';
  audience: string;
  expiresAt: number;
}

type GrantStatus = OperationOutput<typeof grantStatus>;

const JWKS_TTL_MS = 60_000;
const JWKS_MIN_REFRESH_MS = 1_000;

/**
 * Verifies OAuth access tokens locally: signature against the tokens worker's published
 * keys (refetched on an unknown key, at most every few seconds), issuer, audience, expiry.
 * Then whether the grant still stands, cached briefly so a revocation bites within seconds.
 */
export class AccessTokenVerifier {
  private keys: { set: JWTVerifyGetKey; raw: JSONWebKeySet; fetchedAt: number } | undefined;
  private readonly grants = new Map<string, { status: GrantStatus; until: number }>();

  constructor(
    private readonly bus: BusClient,
    private readonly issuer: () => string,
    private readonly grantCacheMs: number,
  ) {}

  async publishedKeys(): Promise<JSONWebKeySet> {
    return (await this.keySet(false)).raw;
  }

  private async keySet(force: boolean) {
    const now = Date.now();
    const stale = !this.keys || now - this.keys.fetchedAt > JWKS_TTL_MS;
    const mayRefresh = !this.keys || now - this.keys.fetchedAt > JWKS_MIN_REFRESH_MS;
    if (stale || (force && mayRefresh)) {
      const { result } = await this.bus.call(jwks, {}, { context: null, requestId: newId('request') });
      const raw = { keys: result.keys } as JSONWebKeySet;
      this.keys = { set: createLocalJWKSet(raw), raw, fetchedAt: now };
    }
    return this.keys as NonNullable<typeof this.keys>;
  }

  /**
   * The token's claims, narrowed to what the grant allows now: a member whose
   * permissions shrank, or who now sees only what they own, is held to that at once.
   */
  async verify(token: string, audience: string): Promise<VerifiedAccessToken> {
    const claims = await this.verifySignature(token, audience);
    const status = await this.grantStatus(claims.grantId);
    if (!status.active) throw new UnauthenticatedError('The authorization was revoked.');
    return { ...claims, scopes: claims.scopes.filter((s) => status.scopes.includes(s)), visibility: status.visibility };
  }

  private async verifySignature(token: string, audience: string, retried = false): Promise<VerifiedAccessToken> {
    // Outside the try: a bus failure says nothing about the token, and a 401 would make clients drop good ones (it is a 503).
    const { set } = await this.keySet(retried);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, set, { issuer: this.issuer(), audience, algorithms: ['ES256'], typ: 'at+jwt' }));
    } catch (error) {
      if (!(error instanceof joseErrors.JOSEError)) throw error;
      if (error instanceof joseErrors.JWKSNoMatchingKey && !retried) return this.verifySignature(token, audience, true);
      if (error instanceof joseErrors.JWTExpired) throw new UnauthenticatedError('The access token has expired.');
      if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'aud') {
        throw new UnauthenticatedError('The access token was issued for another server.');
      }
      throw new UnauthenticatedError('The access token is not valid.');
    }
    const scopes = String(payload.scope ?? '')
      .split(' ')
      .map((s) => Scope.safeParse(s))
      .filter((s) => s.success)
      .map((s) => s.data);
    if (typeof payload.sub !== 'string' || typeof payload.ws !== 'string' || typeof payload.gnt !== 'string' || typeof payload.exp !== 'number') {
      throw new UnauthenticatedError('The access token is missing claims.');
    }
    return {
      userId: payload.sub,
      clientId: String(payload.client_id ?? ''),
      workspaceId: payload.ws,
      grantId: payload.gnt,
      scopes,
      visibility: payload.vis === 'owned' ? 'owned' : 'all',
      audience,
      expiresAt: payload.exp,
    };
  }

  private async grantStatus(grantId: string): Promise<GrantStatus> {
    const cached = this.grants.get(grantId);
    if (cached && cached.until > Date.now()) return cached.status;
    const { result } = await this.bus.call(grantStatus, { grant_id: grantId }, { context: null, requestId: newId('request') });
    if (this.grants.size > 10_000) this.grants.clear();
    this.grants.set(grantId, { status: result, until: Date.now() + this.grantCacheMs });
    return result;
  }

  /** The signing keys changed: fetch them again on the next verification. */
  forgetKeys(): void {
    this.keys = undefined;
  }

  /** A grant was revoked or its member changed: forget its cached status at once. */
  forgetGrant(grantId: string): void {
    this.grants.delete(grantId);
  }
}
