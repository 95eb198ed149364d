import { Migration } from '@mikro-orm/migrations';

/**
 * A replayed response is kept as written (json), not as jsonb, which orders an object's keys
 * by length: a retried POST got the first response's fields in another order (`id` before
 * `object`, custom fields shuffled). Keys are kept for 24 hours, so the table is small.
 */
export class Migration0017IdempotencyResponseAsWritten extends Migration {
  override name = '0017-idempotency-response-as-written';

  override async up(): Promise<void> {
    this.addSql('alter table idempotency_keys alter column response type json using response::json;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table idempotency_keys alter column response type jsonb using response::jsonb;');
  }
}
