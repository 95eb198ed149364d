import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for the contact and deal list filters, and archived stages without a position
 * (the position orders active stages only).
 */
export class Migration0002FiltersAndStageOrder extends Migration {
  override name = '0002-filters-and-stage-order';

  override async up(): Promise<void> {
    this.addSql(`
      alter table stages alter column position drop not null;
      alter table stages add constraint stages_position_when_active check ((archived_at is null) = (position is not null));

      create index contacts_workspace_status_created_idx on contacts (workspace_id, status, created_at, id);
      create index contacts_workspace_email_idx on contacts (workspace_id, email text_pattern_ops);
      create index contacts_workspace_phone_prefix_idx on contacts (workspace_id, phone text_pattern_ops);
      create index contacts_workspace_first_name_idx on contacts (workspace_id, lower(first_name) text_pattern_ops);
      create index contacts_workspace_last_name_idx on contacts (workspace_id, lower(last_name) text_pattern_ops);
      create index contacts_workspace_owner_created_idx on contacts (workspace_id, owner_id, created_at, id) where owner_id is not null;
      create index deals_workspace_owner_created_idx on deals (workspace_id, owner_id, created_at, id) where owner_id is not null;
      drop index deals_workspace_contact_idx;
      create index deals_workspace_contact_created_idx on deals (workspace_id, contact_id, created_at, id) where contact_id is not null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index deals_workspace_contact_created_idx;
      create index deals_workspace_contact_idx on deals (workspace_id, contact_id) where contact_id is not null;
      drop index deals_workspace_owner_created_idx, contacts_workspace_owner_created_idx, contacts_workspace_last_name_idx,
        contacts_workspace_first_name_idx, contacts_workspace_phone_prefix_idx, contacts_workspace_email_idx,
        contacts_workspace_status_created_idx;
      alter table stages drop constraint stages_position_when_active;
      update stages set position = -1 where position is null;
      alter table stages alter column position set not null;
    `);
  }
}
