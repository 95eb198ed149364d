import { randomBytes } from 'node:crypto';
import { API_TOKEN_SECRET_LENGTH as SECRET_LENGTH, LIVE_TOKEN_PREFIX } from '../../../shared/auth/api-token-shape.js';
import { hmacHex } from '../../../shared/secrets.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new token: `sk_live_` and 43 random base62 characters (rejection-sampled, so unbiased). */
export function generateApiToken(): string {
  let out = '';
  while (out.length < SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < SECRET_LENGTH) out += BASE62[byte % 62];
    }
  }
  return LIVE_TOKEN_PREFIX + out;
}

/** What is stored instead of the token: a keyed hash, useless without CRM_SECRET. */
export function hashApiToken(key: Buffer, token: string): string {
  return hmacHex(key, token);
}

export function displayHint(token: string): string {
  return `${LIVE_TOKEN_PREFIX}…${token.slice(-4)}`;
}
