import t from 'tap';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { withoutShownAsNothing } from '../../shared/contracts/shown-as-nothing.js';
import { uniqueViolation } from '../../shared/db/sql.js';
import { createTestDatabase, databaseAfterMigration } from '../helpers/database.js';

/**
 * Migration 0021: the unique indexes on pipeline and stage names hold the name as it is compared
 * (without characters that show as nothing, trimmed, single-spaced, lower-case), so two writes at
 * once cannot both store "Closed Won" and "Closed \u200bWon"; twins stored before are kept, as sent.
 */

const db = await createTestDatabase();
t.teardown(() => db.drop());

t.test('twins stored before are kept and left out of the index; a new twin is refused by it; names stay as stored', async (t) => {
  const orm = await databaseAfterMigration(t, db, '0020-single-spaced-names');
  await db.query(`insert into organizations (id, name, created_at) values ('org_folded', 'Folded', now())`);
  await db.query(`insert into workspaces (id, organization_id, name, created_at, updated_at) values ('ws_folded', 'org_folded', 'Folded', now(), now())`);
  const pipeline = (id: string, name: string, createdAt: string) =>
    db.query(`insert into pipelines (id, workspace_id, name, is_default, created_at, updated_at) values ($1, 'ws_folded', $2, false, $3, now())`, [id, name, createdAt]);
  let position = 0;
  const stage = (id: string, name: string, createdAt: string, archived = false) =>
    db.query(
      `insert into stages (id, workspace_id, pipeline_id, name, position, archived_at, created_at, updated_at)
       values ($1, 'ws_folded', 'pipe_sales', $2, $4, case when $4::int is null then now() end, $3, now())`,
      [id, name, createdAt, archived ? null : position++],
    );
  await pipeline('pipe_sales', 'Sales', '2025-01-01T00:00:00Z');
  await pipeline('pipe_sales_twin', 'Sa\u00adles', '2025-02-01T00:00:00Z');
  // Created before a stage the older one, though its id sorts last.
  await stage('stg_zz_plain', 'Closed Won', '2025-01-01T00:00:00Z');
  await stage('stg_aa_hidden', 'Closed \u200bWon', '2025-03-01T00:00:00Z');
  await stage('stg_spaced', ' closed won\u00a0', '2025-04-01T00:00:00Z');
  await stage('stg_archived', 'Closed\u2060 Won', '2025-05-01T00:00:00Z', true);
  await stage('stg_persian', 'می\u200cخواهم', '2025-01-01T00:00:00Z');

  t.ok((await migrateDatabase(orm, db.url)).includes('0021-names-folded-unique'), '0021 ran');
  const names = async (table: string) => Object.fromEntries((await db.query<{ id: string; name: string }>(`select id, name from ${table} where workspace_id = 'ws_folded'`)).map((r) => [r.id, r.name]));
  t.same(await names('pipelines'), { pipe_sales: 'Sales', pipe_sales_twin: 'Sa\u00adles' }, 'pipeline names as stored');
  t.same(
    await names('stages'),
    { stg_zz_plain: 'Closed Won', stg_aa_hidden: 'Closed \u200bWon', stg_spaced: ' closed won\u00a0', stg_archived: 'Closed\u2060 Won', stg_persian: 'می\u200cخواهم' },
    'stage names as stored',
  );

  const refused = async (sql: string) => {
    try {
      await db.query(sql);
      return null;
    } catch (error) {
      return uniqueViolation(error);
    }
  };
  t.equal(
    await refused(`insert into stages (id, workspace_id, pipeline_id, name, position, created_at, updated_at) values ('stg_new', 'ws_folded', 'pipe_sales', 'CLOSED\u00adWON', 10, now(), now())`),
    null,
    '"CLOSEDWON" is another name',
  );
  t.equal(
    await refused(`insert into stages (id, workspace_id, pipeline_id, name, position, created_at, updated_at) values ('stg_new2', 'ws_folded', 'pipe_sales', 'Closed \ufe0fWon', 11, now(), now())`),
    'stages_pipeline_name_key',
    'a new twin of a stage is refused by the index',
  );
  t.equal(
    await refused(`insert into stages (id, workspace_id, pipeline_id, name, position, created_at, updated_at) values ('stg_new3', 'ws_folded', 'pipe_sales', 'میخواهم', 12, now(), now())`),
    'stages_pipeline_name_key',
    'a Persian name without its ZWNJ is the same name',
  );
  t.equal(
    await refused(`insert into pipelines (id, workspace_id, name, is_default, created_at, updated_at) values ('pipe_new', 'ws_folded', ' SALES\u200b', false, now(), now())`),
    'pipelines_workspace_name_key',
    'a new twin of a pipeline too',
  );
  const definitions = await db.query<{ indexdef: string }>(`select indexdef from pg_indexes where indexname in ('stages_pipeline_name_key', 'pipelines_workspace_name_key') order by indexname`);
  t.match(definitions[0]?.indexdef, /pipe_sales_twin/, 'the pipeline twin is left out');
  t.match(definitions[1]?.indexdef, /stg_aa_hidden.*stg_spaced|stg_spaced.*stg_aa_hidden/, 'the stage twins are left out, the oldest of them held');
  t.notMatch(definitions[1]?.indexdef, /stg_zz_plain/);

  // A twin is left out by its id and the name it had: renamed, it is held by the index again, so
  // a race between its rename and a create of the same name (pipeline writes take no lock) is decided.
  await db.query(`update pipelines set name = 'Leads' where id = 'pipe_sales_twin'`);
  t.equal(
    await refused(`insert into pipelines (id, workspace_id, name, is_default, created_at, updated_at) values ('pipe_leads', 'ws_folded', 'leads\u200b', false, now(), now())`),
    'pipelines_workspace_name_key',
    'a renamed twin is back in the index',
  );

  // The index holds the fold sameName compares with (workers/runtime/same-name.ts), character by
  // character: each folded character, put inside a name held, is a twin the index refuses.
  const folded: number[] = [];
  for (let c = 0; c <= 0x10ffff; c++) {
    if ((c >= 0xd800 && c <= 0xdfff) || c === 0xfeff) continue;
    if (withoutShownAsNothing(String.fromCodePoint(c)) === '') folded.push(c);
  }
  // One round trip: each insert in its own subtransaction, the ones the index let in reported (a
  // function of this throwaway database, as the pool may answer from another session).
  await db.query(`
    create function test_not_refused(names text[]) returns text[] language plpgsql as $$
    declare
      n text;
      missed text[] := '{}';
    begin
      foreach n in array names loop
        begin
          insert into pipelines (id, workspace_id, name, is_default, created_at, updated_at) values ('pipe_fold', 'ws_folded', n, false, now(), now());
          missed := missed || n;
          delete from pipelines where id = 'pipe_fold';
        exception when unique_violation then null;
        end;
      end loop;
      return missed;
    end $$`);
  const [row] = await db.query<{ missed: string[] }>(`select test_not_refused($1) as missed`, [folded.map((c) => `Sa${String.fromCodePoint(c)}les`)]);
  const missed = (row?.missed ?? []).map((name) => `U+${name.codePointAt(2)!.toString(16).toUpperCase()}`);
  t.ok(folded.length > 4000, `${folded.length} characters folded`);
  t.same(missed, [], 'every folded character is folded by the index too');
});
