import { Migration } from '@mikro-orm/migrations';

/**
 * A user created by an invitation signs in with a temporary password that an
 * administrator saw once; the console asks them to choose their own before anything else.
 */
export class Migration0004TemporaryPasswords extends Migration {
  override name = '0004-temporary-passwords';

  override async up(): Promise<void> {
    this.addSql('alter table users add column password_change_required boolean not null default false;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table users drop column password_change_required;');
  }
}
