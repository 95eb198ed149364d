import { Migration } from '@mikro-orm/migrations';

/**
 * `workspaces.settings_version`, raised by Postgres itself whenever what a record's fields
 * are read with changes: the workspace's default country or time zone, or any of its
 * custom field definitions. A worker keeps a workspace's settings with the version it read
 * them at and writes only while that version is current (crm_assert_settings_version), so a
 * create needs no query for the settings before its insert.
 */
export class Migration0012WorkspaceSettingsVersion extends Migration {
  override name = '0012-workspace-settings-version';

  override async up(): Promise<void> {
    this.addSql(`
      alter table workspaces add column settings_version integer not null default 0;

      create function crm_bump_settings_on_workspace() returns trigger language plpgsql as $$
      begin
        if new.default_country is distinct from old.default_country or new.time_zone is distinct from old.time_zone then
          new.settings_version := old.settings_version + 1;
        end if;
        return new;
      end
      $$;
      create trigger workspaces_settings_version before update on workspaces
        for each row execute function crm_bump_settings_on_workspace();

      create function crm_bump_settings_on_custom_field() returns trigger language plpgsql as $$
      begin
        update workspaces set settings_version = settings_version + 1
          where id = (case when tg_op = 'DELETE' then old.workspace_id else new.workspace_id end);
        return null;
      end
      $$;
      create trigger custom_fields_settings_version after insert or update or delete on custom_fields
        for each row execute function crm_bump_settings_on_custom_field();

      -- Raises CRMSV (which a worker answers by reading the settings again) when the workspace's
      -- settings are no longer those of the version given; called from a write's RETURNING, the
      -- error undoes the whole statement.
      create function crm_assert_settings_version(workspace text, expected integer) returns boolean
        language plpgsql stable as $$
        begin
          if (select settings_version from workspaces where id = workspace) is distinct from expected then
            raise exception 'workspace settings changed' using errcode = 'CRMSV';
          end if;
          return true;
        end
        $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop function crm_assert_settings_version(text, integer);
      drop trigger custom_fields_settings_version on custom_fields;
      drop function crm_bump_settings_on_custom_field();
      drop trigger workspaces_settings_version on workspaces;
      drop function crm_bump_settings_on_workspace();
      alter table workspaces drop column settings_version;
    `);
  }
}
