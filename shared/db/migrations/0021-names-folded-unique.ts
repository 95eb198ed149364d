import { Migration } from '@mikro-orm/migrations';

/** JavaScript's \s, as in 0020 (and workers/runtime/same-name.ts). */
const SPACES = String.raw`[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+`;
/** Unicode's Default_Ignorable_Code_Point but U+FEFF (a space above), as in workers/runtime/same-name.ts. */
const SHOWN_AS_NOTHING = String.raw`[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+`;
/** An E'' literal with its backslashes doubled: the regex gets them whatever standard_conforming_strings says. */
const literal = (regex: string): string => `E'${regex.replaceAll('\\', '\\\\')}'`;
/** The name as sameName compares it (workers/runtime/same-name.ts): the expression both indexes now hold. */
const NAME_KEY = `lower(btrim(regexp_replace(regexp_replace(name, ${literal(SHOWN_AS_NOTHING)}, '', 'g'), ${literal(SPACES)}, ' ', 'g')))`;

/** The PL/pgSQL that rebuilds `index` on the folded name of `table`'s active rows within `scope`, its twins stored before left out by id and name. */
function foldedUniqueIndex(table: 'pipelines' | 'stages', scope: 'workspace_id' | 'pipeline_id', index: string): string {
  return `
        select coalesce(string_agg(format('(%L, %L)', id, name), ', '), '') into twins from (
          select id, name, row_number() over (partition by ${scope}, ${NAME_KEY} order by created_at, id) as nth
          from ${table} where archived_at is null
        ) t where nth > 1;
        drop index if exists ${index};
        execute format('create unique index ${index} on ${table} (${scope}, (%s)) where archived_at is null%s',
          $k$${NAME_KEY}$k$, case when twins = '' then '' else format(' and (id, name) not in (%s)', twins) end);`;
}

/**
 * Pipeline and stage names are compared without the characters that show as nothing
 * ("Closed\u200bWon" is "Closed Won": sameName), and the unique indexes that decide a race between
 * two writes held lower(name) alone, so two such creates at once could both pass. Both indexes now
 * hold the name as it is compared. Names stay as they were stored (they are compared folded, never
 * rewritten). An active name whose folded form an older active name of its pipeline (or workspace)
 * already has, a twin kept from before, is left out of the index rather than failing the
 * migration, as 0020 kept such twins: both stay reachable by id, a new name like either is refused
 * by the check before every write (nameTaken), and a rename sorts them out: a twin is left out by
 * its id and the name it had, so once renamed it is back in the index (pipeline writes take no
 * lock around their name check, and the index is what decides their race).
 */
export class Migration0021NamesFoldedUnique extends Migration {
  override name = '0021-names-folded-unique';

  override async up(): Promise<void> {
    await this.execute(`
      do $$
      declare
        twins text;
      begin
        ${foldedUniqueIndex('pipelines', 'workspace_id', 'pipelines_workspace_name_key')}
        ${foldedUniqueIndex('stages', 'pipeline_id', 'stages_pipeline_name_key')}
      end $$;
    `);
  }

  override async down(): Promise<void> {
    // Back to lower(name): names were never rewritten, so every active pair that lower() tells apart still is.
    await this.execute(`
      drop index if exists pipelines_workspace_name_key;
      create unique index pipelines_workspace_name_key on pipelines (workspace_id, lower(name)) where archived_at is null;
      drop index if exists stages_pipeline_name_key;
      create unique index stages_pipeline_name_key on stages (pipeline_id, lower(name)) where archived_at is null;
    `);
  }
}
