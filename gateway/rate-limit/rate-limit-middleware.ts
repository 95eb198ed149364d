import type { Request, RequestHandler, Response } from 'express';
import { RateLimitedError } from '../../shared/errors.js';
import { clientAddressKey } from './client-address-key.js';
import { setRateLimitHeaders } from './rate-limit-headers.js';
import type { RateLimiter, RateLimitVerdict } from './rate-limiter.js';

/** The gateway's limiters; null where a limit is turned off (0). */
export interface GatewayRateLimits {
  token: RateLimiter | null;
  grant: RateLimiter | null;
  /** Console requests per signed-in user. */
  session: RateLimiter | null;
  signIn: RateLimiter | null;
  /** Refused API tokens per client IP (gateway/auth/failed-auth-limit.ts). */
  failedAuth: RateLimiter | null;
}

/** Limits an authenticated request by its API token or its OAuth grant (console sessions: {@link limitByKey}). */
export function limitByCredential(limits: GatewayRateLimits): RequestHandler {
  return (req, res, next) => {
    const credential = req.credential;
    const [limiter, id] =
      credential?.kind === 'api_token' ? [limits.token, credential.tokenId] : credential?.kind === 'oauth' ? [limits.grant, credential.grantId] : [null, undefined];
    if (!limiter || !id) return next();
    const held = limiter.takeHeld(id);
    if (!held) return void apply(limiter, id, res).then(next, next);
    try {
      applyVerdict(held, res);
    } catch (error) {
      return next(error);
    }
    next();
  };
}

/** Limits by client address, e.g. sign-in attempts (behind a proxy, set TRUST_PROXY so this is the client's). */
export function limitByIp(limiter: RateLimiter | null): RequestHandler {
  return limitByKey(limiter, (req) => clientAddressKey(req.ip ?? 'unknown'));
}

/** Limits by whatever `keyOf` names, e.g. the signed-in user of a console page. */
export function limitByKey(limiter: RateLimiter | null, keyOf: (req: Request) => string): RequestHandler {
  return (req, res, next) => {
    if (!limiter) return next();
    apply(limiter, keyOf(req), res).then(next, next);
  };
}

async function apply(limiter: RateLimiter, id: string, res: Response): Promise<void> {
  const verdict = await limiter.take(id);
  if (verdict) applyVerdict(verdict, res);
}

/** The headers of a verdict; a refusal throws the 429. */
function applyVerdict(verdict: RateLimitVerdict, res: Response): void {
  setRateLimitHeaders(res, verdict);
  if (!verdict.allowed) {
    // Here for every kind of answer (the tool servers' JSON-RPC errors set none of their own).
    res.set('Retry-After', String(verdict.resetSeconds));
    throw new RateLimitedError(verdict.resetSeconds);
  }
}
