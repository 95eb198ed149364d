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
        scope text;
        r record;
      begin
        foreach tbl in array array['pipelines', 'stages'] loop
          scope := case tbl when 'pipelines' then 'workspace_id' else 'pipeline_id' end;
          for r in execute format($q$select id from %I where name <> ${SINGLE_SPACED} and ${SINGLE_SPACED} <> '' order by created_at, id$q$, tbl) loop
            begin
              -- The twin checked here as well as by the index: since 0021 the index leaves such twins out, and this may run again.
              execute format(
                $q$update %I t set name = ${SINGLE_SPACED.replace('name', 't.name')} where id = $1 and not (t.archived_at is null and exists (
                  select 1 from %I o where o.%I = t.%I and o.id <> t.id and o.archived_at is null and lower(o.name) = lower(${SINGLE_SPACED.replace('name', 't.name')})))$q$,
                tbl, tbl, scope, scope) using r.id;
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
