import { randomBytes } from 'node:crypto';
import { openSealedText, sealText } from '../../../shared/sealed-text.js';
import type { Secrets } from '../../../shared/secrets.js';

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64 (what the libraries expect). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Whether `text` is such a secret: `whsec_` and a key of at least 12 bytes in canonical base64
 * (padded), as every Standard Webhooks library reads it; the signing library throws on other
 * text, and a lenient decoding would sign with a key that stricter receivers cannot read.
 */
export function isWebhookSecret(text: string): boolean {
  const key = /^whsec_([A-Za-z0-9+/]{16,}={0,2})$/.exec(text)?.[1];
  return key !== undefined && Buffer.from(key, 'base64').toString('base64') === key;
}

/** Stored encrypted: deliveries need the secret itself, so a hash would not do. */
export function sealWebhookSecret(secrets: Pick<Secrets, 'webhookSecretKey'>, secret: string): string {
  return sealText(secrets.webhookSecretKey, secret);
}

export function openWebhookSecret(secrets: Pick<Secrets, 'webhookSecretKey'>, sealed: string): string {
  return openSealedText(secrets.webhookSecretKey, sealed);
}
