import { Migration } from '@mikro-orm/migrations';

/** JavaScript's \s (what the contracts' trim() and singleSpaced fold), as a Postgres character class. */
const SPACES = String.raw`[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+`;
/** An E'' literal with its backslashes doubled: the regex gets them whatever standard_conforming_strings says. */
const SINGLE_SPACED = `btrim(regexp_replace(name, E'${SPACES.replaceAll('\\', '\\\\')}', ' ', 'g'))`;

/**
 * Pipeline and stage names, and custom field labels, are kept trimmed and single-spaced since
 * writes fold them so (singleSpaced in shared/contracts/common.ts): "Closed  Won" stored before
 * that is rewritten "Closed Won" here. Every check and lookup folds spacing too (sameName), so
 * this is for what lists show and for the unique indexes on lower(name), which then hold every
 * name in the one form writes give. One whose single-spaced form another active name of its
 * pipeline (or workspace) already has is left as it is, rather than failing the migration: both
 * stay reachable by id, a new name like either is refused, and a rename sorts them out; of
 * several such, the oldest gets the single-spaced name.
 * updated_at stays: the name is the same name, as every check now reads it.
 */
export class Migration0020SingleSpacedNames extends Migration {
  override name = '0020-single-spaced-names';

  override async up(): Promise<void> {
    await this.execute(`
      do $$
      declare
        tbl text;
        r record;
      begin
        foreach tbl in array array['pipelines', 'stages'] loop
          for r in execute format($q$select id from %I where name <> ${SINGLE_SPACED} and ${SINGLE_SPACED} <> '' order by created_at, id$q$, tbl) loop
            begin
              execute format($q$update %I set name = ${SINGLE_SPACED} where id = $1$q$, tbl) using r.id;
            exception when unique_violation then
              null;
            end;
          end loop;
        end loop;
      end $$;
      update custom_fields set label = ${SINGLE_SPACED.replace('name', 'label')}
      where label <> ${SINGLE_SPACED.replace('name', 'label')} and ${SINGLE_SPACED.replace('name', 'label')} <> '';
    `);
  }

  override async down(): Promise<void> {
    // Nothing to undo: the single-spaced name is the same name, as every check now reads it.
  }
}
