import { Migration } from '@mikro-orm/migrations';

/** A workspace's time zone (IANA name): days and relative ranges in filters are read in it. */
export class Migration0010WorkspaceTimeZone extends Migration {
  override name = '0010-workspace-time-zone';

  override async up(): Promise<void> {
    this.addSql(`alter table workspaces add column time_zone text not null default 'UTC';`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table workspaces drop column time_zone;');
  }
}
