import type { Request, Response } from 'express';
import type { CrmError } from '../../shared/errors.js';
import { clientAddressKey } from '../rate-limit/client-address-key.js';

/** The address failed sign-ins are counted under (behind a proxy, see TRUST_PROXY): an IPv6 client's /64, see {@link clientAddressKey}. */
export function clientAddressOf(req: Request): string {
  return clientAddressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

/**
 * A sign-in, or a console password change, refused for too many failed attempts: sets
 * Retry-After and gives the words both pages show.
 */
export function tooManyAttempts(res: Response, error: CrmError): string {
  const retryAfter = error.details.retry_after ?? 900;
  res.set('Retry-After', String(retryAfter));
  return `Too many failed attempts. Try again in ${Math.ceil(retryAfter / 60)} minutes.`;
}
