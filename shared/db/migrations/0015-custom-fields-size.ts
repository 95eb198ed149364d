import { Migration } from '@mikro-orm/migrations';

/**
 * A record's custom field values are at most 300,000 bytes as Postgres writes the jsonb out
 * (CUSTOM_FIELDS_MAX_BYTES): an update's event carries the record and the old values, and one
 * event, like one record, must fit in one NATS message (1 MB by default) on every path (a
 * read, the stream, a webhook). A trigger rather than a check constraint: it looks only at
 * writes that change the values, so a row stored larger before this limit can still be
 * archived, reassigned or disowned. It raises what a check constraint would (23514, with
 * the constraint's name), which the worker turns into a 400.
 */
export class Migration0015CustomFieldsSize extends Migration {
  override name = '0015-custom-fields-size';

  override async up(): Promise<void> {
    this.addSql(`
      create function crm_limit_custom_fields_size() returns trigger language plpgsql as $$
      begin
        if (tg_op = 'INSERT' or new.custom_fields is distinct from old.custom_fields) and octet_length(new.custom_fields::text) > 300000 then
          raise exception 'custom field values of % % take % bytes, more than 300000', tg_table_name, new.id, octet_length(new.custom_fields::text)
            using errcode = 'check_violation', constraint = tg_table_name || '_custom_fields_size';
        end if;
        return new;
      end $$;
      create trigger contacts_custom_fields_size before insert or update of custom_fields on contacts
        for each row execute function crm_limit_custom_fields_size();
      create trigger deals_custom_fields_size before insert or update of custom_fields on deals
        for each row execute function crm_limit_custom_fields_size();`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger contacts_custom_fields_size on contacts;
      drop trigger deals_custom_fields_size on deals;
      drop function crm_limit_custom_fields_size();`);
  }
}
