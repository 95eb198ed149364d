import { Migration } from '@mikro-orm/migrations';

/**
 * The change history, and its outbox: each write stores its event, and the event's id in
 * `event_outbox`, in its own transaction; the relay publishes what the outbox lists and
 * deletes it from there. A narrow table of its own, because marking each wide, four times
 * indexed events row as published would rewrite it and every one of its index entries.
 */
export class Migration0006Events extends Migration {
  override name = '0006-events';

  override async up(): Promise<void> {
    this.addSql(`
      create table events (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        type text not null,
        object_type text not null,
        object_id text not null,
        owner_id text,
        data jsonb not null,
        previous_attributes jsonb,
        request_id text,
        actor jsonb not null,
        created_at timestamptz(3) not null
      );
      -- The feed, newest first, and one record's history.
      create index events_feed_idx on events (workspace_id, created_at, id);
      create index events_object_idx on events (workspace_id, object_id, created_at, id);
      -- What the relay still has to publish, in the order the events were made.
      create table event_outbox (
        event_id text primary key references events (id) on delete cascade,
        created_at timestamptz(3) not null
      );
      create index event_outbox_order_idx on event_outbox (created_at, event_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists event_outbox; drop table if exists events;');
  }
}
