import { Migration } from '@mikro-orm/migrations';

/**
 * A record's custom field values are at most 300,000 bytes as JSON (CUSTOM_FIELDS_MAX_BYTES):
 * an update's event carries the record and the old values, and one event, like one record,
 * must fit in one NATS message (1 MB by default) on every path (a read, the stream, a webhook).
 * NOT VALID: rows stored before are not checked, only what is written from now on.
 */
export class Migration0015CustomFieldsSize extends Migration {
  override name = '0015-custom-fields-size';

  override async up(): Promise<void> {
    this.addSql(`
      alter table contacts add constraint contacts_custom_fields_size check (octet_length(custom_fields::text) <= 300000) not valid;
      alter table deals add constraint deals_custom_fields_size check (octet_length(custom_fields::text) <= 300000) not valid;`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table contacts drop constraint contacts_custom_fields_size; alter table deals drop constraint deals_custom_fields_size;');
  }
}
