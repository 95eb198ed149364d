import { Migration } from '@mikro-orm/migrations';

/**
 * The change history, kept as an outbox: each write stores its event in its own
 * transaction, and the relay publishes, in `xid` order, the events of transactions that
 * have ended (below the oldest one still running), remembering how far it got. No row is
 * updated once written: marking each published would rewrite it and all of its indexes.
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
        created_at timestamptz(3) not null,
        -- The writing transaction: events of transactions below the snapshot's xmin can no
        -- longer be joined by an earlier one committing late.
        xid xid8 not null default pg_current_xact_id()
      );
      -- The feed, newest first, and one record's history.
      create index events_feed_idx on events (workspace_id, created_at, id);
      create index events_object_idx on events (workspace_id, object_id, created_at, id);
      -- The relay's order.
      create index events_relay_idx on events (xid, id);
      -- How far the relay of each namespace got: the last event published.
      create table event_relay_positions (
        name text primary key,
        xid xid8 not null,
        event_id text not null,
        updated_at timestamptz(3) not null
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists event_relay_positions; drop table if exists events;');
  }
}
