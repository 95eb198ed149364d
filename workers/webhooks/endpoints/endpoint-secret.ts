import { randomBytes } from 'node:crypto';
import { openSealedText, sealText } from '../../../shared/sealed-text.js';
import type { Secrets } from '../../../shared/secrets.js';

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64 (what the libraries expect). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Stored encrypted: deliveries need the secret itself, so a hash would not do. */
export function sealWebhookSecret(secrets: Pick<Secrets, 'webhookSecretKey'>, secret: string): string {
  return sealText(secrets.webhookSecretKey, secret);
}

export function openWebhookSecret(secrets: Pick<Secrets, 'webhookSecretKey'>, sealed: string): string {
  return openSealedText(secrets.webhookSecretKey, sealed);
}
