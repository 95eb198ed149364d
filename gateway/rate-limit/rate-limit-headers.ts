import type { Response } from 'express';
import { RateLimitedError } from '../../shared/errors.js';
import { WINDOW_MS, type RateLimitVerdict } from './rate-limiter.js';

/** The IETF RateLimit header fields: the limit, what is left, and seconds until the window resets. */
export function setRateLimitHeaders(res: Response, verdict: RateLimitVerdict): void {
  res.set('RateLimit-Limit', String(verdict.limit));
  res.set('RateLimit-Remaining', String(verdict.remaining));
  res.set('RateLimit-Reset', String(verdict.resetSeconds));
  res.set('RateLimit-Policy', `${verdict.limit};w=${WINDOW_MS / 1000}`);
}

/**
 * A 429 that carries its verdict, for a refusal made where there is no response at hand
 * (the refused-token limit, deep in authentication): the error handler sets the headers.
 */
export class RateLimitRefusedError extends RateLimitedError {
  constructor(readonly verdict: RateLimitVerdict) {
    super(verdict.resetSeconds);
  }
}
