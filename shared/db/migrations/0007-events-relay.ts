import { Migration } from '@mikro-orm/migrations';

/**
 * Wakes the event relay when events commit: a statement-level trigger notifies the
 * `crm_events` channel, and Postgres delivers a notification only once its transaction
 * commits (none for one that rolls back). The relay also polls, so a lost wake-up only delays.
 */
export class Migration0007EventsRelay extends Migration {
  override name = '0007-events-relay';

  override async up(): Promise<void> {
    this.addSql(`
      create function notify_events() returns trigger language plpgsql as $$
      begin
        perform pg_notify('crm_events', '');
        return null;
      end $$;
      create trigger events_notify after insert on events for each statement execute function notify_events();
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists events_notify on events; drop function if exists notify_events();');
  }
}
