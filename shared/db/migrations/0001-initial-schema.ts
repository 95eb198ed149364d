import { Migration } from '@mikro-orm/migrations';

/**
 * The first schema. Written by hand rather than generated, so that the database
 * itself enforces what the service promises: one phone per workspace, and no row
 * that points at another workspace's rows (composite foreign keys carry
 * workspace_id on both sides).
 */
export class Migration0001InitialSchema extends Migration {
  override name = '0001-initial-schema';

  override async up(): Promise<void> {
    this.addSql(`
      create table organizations (
        id text primary key,
        name text not null,
        created_at timestamptz(3) not null
      );
      create unique index organizations_name_key on organizations (lower(name));

      create table workspaces (
        id text primary key,
        organization_id text not null references organizations (id),
        name text not null,
        default_country char(2) check (default_country ~ '^[A-Z]{2}$'),
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null
      );
      create unique index workspaces_organization_name_key on workspaces (organization_id, lower(name));

      create table users (
        id text primary key,
        email text not null check (email = lower(email)),
        name text,
        password_hash text not null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        constraint users_email_key unique (email)
      );

      create table memberships (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        user_id text not null references users (id) on delete cascade,
        permissions text[] not null,
        visibility text not null check (visibility in ('all', 'owned')),
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        constraint memberships_workspace_user_key unique (workspace_id, user_id)
      );
      create index memberships_user_idx on memberships (user_id);

      create table api_tokens (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        name text not null,
        token_hash text not null,
        display_hint text not null,
        scopes text[] not null,
        created_by text,
        created_at timestamptz(3) not null,
        last_used_at timestamptz(3),
        expires_at timestamptz(3),
        revoked_at timestamptz(3),
        constraint api_tokens_token_hash_key unique (token_hash)
      );
      create index api_tokens_workspace_created_idx on api_tokens (workspace_id, created_at, id);

      create table contacts (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        first_name text not null,
        last_name text,
        email text,
        phone text not null check (phone ~ '^\\+[1-9][0-9]{1,14}$'),
        status text not null check (status in ('active', 'archived')),
        custom_fields jsonb not null default '{}',
        owner_id text,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        constraint contacts_workspace_phone_key unique (workspace_id, phone),
        constraint contacts_workspace_id_key unique (workspace_id, id),
        constraint contacts_owner_fkey foreign key (workspace_id, owner_id)
          references memberships (workspace_id, user_id) on delete set null (owner_id)
      );
      create index contacts_workspace_created_idx on contacts (workspace_id, created_at, id);

      create table custom_fields (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        object_type text not null check (object_type in ('contact', 'deal')),
        key text not null,
        label text not null,
        type text not null check (type in ('text', 'number', 'boolean', 'date', 'select')),
        options jsonb,
        required boolean not null default false,
        archived_at timestamptz(3),
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        constraint custom_fields_workspace_object_key_key unique (workspace_id, object_type, key)
      );

      create table pipelines (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        name text not null,
        is_default boolean not null default false,
        archived_at timestamptz(3),
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        constraint pipelines_workspace_id_key unique (workspace_id, id)
      );
      create unique index pipelines_workspace_name_key on pipelines (workspace_id, lower(name)) where archived_at is null;
      create unique index pipelines_one_default_key on pipelines (workspace_id) where is_default;

      create table stages (
        id text primary key,
        workspace_id text not null,
        pipeline_id text not null,
        name text not null,
        position integer not null,
        archived_at timestamptz(3),
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        constraint stages_pipeline_fkey foreign key (workspace_id, pipeline_id)
          references pipelines (workspace_id, id) on delete cascade,
        constraint stages_workspace_id_key unique (workspace_id, id),
        constraint stages_pipeline_id_key unique (pipeline_id, id)
      );
      create unique index stages_pipeline_name_key on stages (pipeline_id, lower(name)) where archived_at is null;

      create table deals (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        name text not null,
        pipeline_id text not null,
        stage_id text not null,
        amount bigint check (amount >= 0),
        currency char(3) check (currency ~ '^[A-Z]{3}$'),
        contact_id text,
        owner_id text,
        custom_fields jsonb not null default '{}',
        closed_at timestamptz(3),
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        constraint deals_pipeline_fkey foreign key (workspace_id, pipeline_id) references pipelines (workspace_id, id),
        constraint deals_stage_fkey foreign key (pipeline_id, stage_id) references stages (pipeline_id, id),
        constraint deals_stage_workspace_fkey foreign key (workspace_id, stage_id) references stages (workspace_id, id),
        constraint deals_contact_fkey foreign key (workspace_id, contact_id) references contacts (workspace_id, id),
        constraint deals_owner_fkey foreign key (workspace_id, owner_id)
          references memberships (workspace_id, user_id) on delete set null (owner_id)
      );
      create index deals_workspace_created_idx on deals (workspace_id, created_at, id);
      create index deals_workspace_stage_created_idx on deals (workspace_id, stage_id, created_at, id);
      create index deals_workspace_pipeline_created_idx on deals (workspace_id, pipeline_id, created_at, id);
      create index deals_workspace_contact_idx on deals (workspace_id, contact_id) where contact_id is not null;

      create table idempotency_keys (
        workspace_id text not null references workspaces (id) on delete cascade,
        key text not null,
        fingerprint text not null,
        response jsonb,
        created_at timestamptz(3) not null,
        primary key (workspace_id, key)
      );
      create index idempotency_keys_created_idx on idempotency_keys (created_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table if exists idempotency_keys, deals, stages, pipelines, custom_fields, contacts,
        api_tokens, memberships, users, workspaces, organizations cascade;
    `);
  }
}
