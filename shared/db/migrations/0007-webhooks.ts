import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoints, their deliveries (one per endpoint and event, the Standard Webhooks
 * message) and every attempt of each delivery.
 */
export class Migration0007Webhooks extends Migration {
  override name = '0007-webhooks';

  override async up(): Promise<void> {
    this.addSql(`
      create table webhook_endpoints (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        url text not null,
        description text,
        enabled_events text[] not null,
        status text not null check (status in ('enabled', 'disabled')),
        -- AES-256-GCM under a key derived from CRM_SECRET: never stored in the clear.
        secret_encrypted text not null,
        secret_rotated_at timestamptz(3),
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        -- Since when every attempt has failed; cleared by a success. Disabled after WEBHOOK_DISABLE_AFTER.
        failing_since timestamptz(3)
      );
      create index webhook_endpoints_list_idx on webhook_endpoints (workspace_id, created_at, id);

      create table webhook_deliveries (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        endpoint_id text not null references webhook_endpoints (id) on delete cascade,
        event_id text not null,
        event_type text not null,
        -- The exact body signed and sent, so every attempt sends the same bytes.
        payload text not null,
        status text not null check (status in ('pending', 'succeeded', 'failed')),
        attempt_count integer not null default 0,
        next_attempt_at timestamptz(3),
        last_attempt_at timestamptz(3),
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        -- At least once, but one delivery per endpoint and event however often the event arrives.
        constraint webhook_deliveries_endpoint_event_key unique (endpoint_id, event_id)
      );
      create index webhook_deliveries_list_idx on webhook_deliveries (workspace_id, endpoint_id, created_at, id);
      -- What the delivery loop claims next: small, since rows leave it once settled.
      create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';

      create table webhook_delivery_attempts (
        id bigint generated always as identity primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        delivery_id text not null references webhook_deliveries (id) on delete cascade,
        attempted_at timestamptz(3) not null,
        status_code integer,
        latency_ms integer not null,
        succeeded boolean not null,
        error text
      );
      create index webhook_delivery_attempts_delivery_idx on webhook_delivery_attempts (delivery_id, attempted_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists webhook_delivery_attempts; drop table if exists webhook_deliveries; drop table if exists webhook_endpoints;');
  }
}
