import { Migration } from '@mikro-orm/migrations';

/**
 * A token created by a token names its parent, so that revoking the parent can revoke its
 * children too; an OAuth client records when a user first approved it, before which the
 * authorization endpoint never redirects an error to it (RFC 9700 §4.11.2) and after 30
 * unused days its registration is purged.
 */
export class Migration0005TokenLineageAndOauth extends Migration {
  override name = '0005-token-lineage-and-oauth';

  override async up(): Promise<void> {
    this.addSql(`
      alter table api_tokens add constraint api_tokens_workspace_id_key unique (workspace_id, id);
      alter table api_tokens add column parent_id text;
      alter table api_tokens add constraint api_tokens_parent_fkey foreign key (workspace_id, parent_id)
        references api_tokens (workspace_id, id) on delete set null (parent_id);
      create index api_tokens_parent_idx on api_tokens (workspace_id, parent_id) where parent_id is not null;

      alter table oauth_clients add column first_consented_at timestamptz(3);
      -- Clients that already hold a grant have completed a consent.
      update oauth_clients c set first_consented_at = (select min(g.created_at) from oauth_grants g where g.client_id = c.id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table oauth_clients drop column first_consented_at;
      alter table api_tokens drop column parent_id;
      alter table api_tokens drop constraint api_tokens_workspace_id_key;
    `);
  }
}
