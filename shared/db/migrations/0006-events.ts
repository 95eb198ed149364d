import { Migration } from '@mikro-orm/migrations';

/**
 * The change history, kept as an outbox: each write stores its event in its own
 * transaction, and the relay publishes the rows not yet published.
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
        published_at timestamptz(3)
      );
      -- The feed, newest first, and one record's history.
      create index events_feed_idx on events (workspace_id, created_at, id);
      create index events_object_idx on events (workspace_id, object_id, created_at, id);
      -- What the relay still has to publish: small, since rows leave it once published.
      create index events_unpublished_idx on events (created_at, id) where published_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists events;');
  }
}
