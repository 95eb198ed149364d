import { Migration } from '@mikro-orm/migrations';

/**
 * Notes on a contact or a deal. The composite foreign keys keep a note in its record's
 * workspace; a deleted deal takes its notes with it (contacts are archived, never deleted).
 * Each record's notes are read in (created_at, id) order, both ways, from its own index.
 */
export class Migration0008Notes extends Migration {
  override name = '0008-notes';

  override async up(): Promise<void> {
    this.addSql(`
      alter table deals add constraint deals_workspace_id_key unique (workspace_id, id);
      create table notes (
        id text primary key,
        workspace_id text not null references workspaces (id) on delete cascade,
        contact_id text,
        deal_id text,
        body text not null,
        author jsonb not null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        constraint notes_one_parent_check check ((contact_id is null) <> (deal_id is null)),
        constraint notes_body_length_check check (char_length(body) between 1 and 10000),
        constraint notes_contact_fkey foreign key (workspace_id, contact_id) references contacts (workspace_id, id),
        constraint notes_deal_fkey foreign key (workspace_id, deal_id) references deals (workspace_id, id) on delete cascade
      );
      create index notes_workspace_contact_created_idx on notes (workspace_id, contact_id, created_at, id) where contact_id is not null;
      create index notes_workspace_deal_created_idx on notes (workspace_id, deal_id, created_at, id) where deal_id is not null;
      -- The list of every note the caller may read, and the foreign keys' lookups from a deleted deal.
      create index notes_workspace_created_idx on notes (workspace_id, created_at, id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists notes; alter table deals drop constraint if exists deals_workspace_id_key;');
  }
}
