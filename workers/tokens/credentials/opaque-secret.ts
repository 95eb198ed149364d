import { randomBytes } from 'node:crypto';
import { hmacHex } from '../../../shared/secrets.js';

/**
 * Bearer secrets other than API tokens: session cookies, authorization codes and
 * refresh tokens. 256 random bits; only the keyed hash is stored.
 */
export function newOpaqueSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export function hashOpaqueSecret(key: Buffer, secret: string): string {
  return hmacHex(key, secret);
}
