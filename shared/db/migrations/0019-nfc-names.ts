import { Migration } from '@mikro-orm/migrations';

/**
 * Pipeline and stage names are kept in Unicode NFC since writes normalise them (uniqueName in
 * shared/contracts/common.ts), and names looked up are normalised too: a name stored before
 * that with a combining accent ("Cafe\u0301") would no longer be found by its own spelling, and
 * a new "Café" would pass the unique index beside it. Each such name is rewritten to NFC here.
 * One whose NFC form another active name of its pipeline (or workspace) already has is left as
 * it is, rather than failing the migration: both stay reachable by id, and a rename sorts them out.
 * Postgres' normalize() needs a UTF8 database; any other keeps its names.
 */
export class Migration0019NfcNames extends Migration {
  override name = '0019-nfc-names';

  override async up(): Promise<void> {
    await this.execute(`
      do $$
      declare
        tbl text;
        r record;
      begin
        if current_setting('server_encoding') <> 'UTF8' then
          return;
        end if;
        foreach tbl in array array['pipelines', 'stages'] loop
          for r in execute format('select id from %I where name <> normalize(name, NFC)', tbl) loop
            begin
              execute format('update %I set name = normalize(name, NFC) where id = $1', tbl) using r.id;
            exception when unique_violation then
              null;
            end;
          end loop;
        end loop;
      end $$;
    `);
  }

  override async down(): Promise<void> {
    // Nothing to undo: the NFC name is the same name, as every check now reads it.
  }
}
