import { Migration } from '@mikro-orm/migrations';

/**
 * A rotated webhook secret may keep signing beside the new one for a while (Standard
 * Webhooks carries several signatures in one header), so a receiver can switch secrets
 * without rejecting a delivery in between.
 */
export class Migration0013WebhookSecretOverlap extends Migration {
  override name = '0013-webhook-secret-overlap';

  override async up(): Promise<void> {
    this.addSql(`
      alter table webhook_endpoints
        add column previous_secret_encrypted text,
        add column previous_secret_expires_at timestamptz(3);`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table webhook_endpoints drop column previous_secret_encrypted, drop column previous_secret_expires_at;');
  }
}
