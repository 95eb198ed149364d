import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a copy of the webhooks worker is sending a delivery, apart from when it is due:
 * a retry by hand waits for the attempt under way instead of starting a second one beside it.
 */
export class Migration0014WebhookDeliveryLease extends Migration {
  override name = '0014-webhook-delivery-lease';

  override async up(): Promise<void> {
    this.addSql('alter table webhook_deliveries add column leased_until timestamptz(3);');
  }

  override async down(): Promise<void> {
    this.addSql('alter table webhook_deliveries drop column leased_until;');
  }
}
