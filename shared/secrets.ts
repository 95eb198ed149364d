import { createHmac, hkdfSync } from 'node:crypto';

/**
 * Keys derived from CRM_SECRET, one per purpose, so a key leaked from one use
 * (say, a cursor) tells nothing about another (token hashes).
 */
export interface Secrets {
  /** HMAC key for API token hashes. */
  tokenHashKey: Buffer;
  /** HMAC key that signs pagination cursors. */
  cursorKey: Buffer;
  /** HMAC key for session cookies, authorization codes and refresh tokens. */
  opaqueHashKey: Buffer;
  /** AES-256-GCM key for the private halves of the OAuth signing keys at rest. */
  keyEncryptionKey: Buffer;
  /** HMAC key that signs operator calls on the bus (the CLI signs, workers check; gateways never hold it). */
  operatorCallKey: Buffer;
  /** AES-256-GCM key for webhook endpoints' signing secrets at rest. */
  webhookSecretKey: Buffer;
}

function derive(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'workspace-crm', purpose, 32));
}

export function deriveSecrets(secret: string): Secrets {
  return {
    tokenHashKey: derive(secret, 'api-token-hash'),
    cursorKey: derive(secret, 'pagination-cursor'),
    opaqueHashKey: derive(secret, 'opaque-secret-hash'),
    keyEncryptionKey: derive(secret, 'signing-key-encryption'),
    operatorCallKey: derive(secret, 'operator-call-signature'),
    webhookSecretKey: derive(secret, 'webhook-secret-encryption'),
  };
}

export function hmacHex(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}
