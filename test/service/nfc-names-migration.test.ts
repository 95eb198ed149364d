import t from 'tap';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { createTestDatabase, databaseAfterMigration } from '../helpers/database.js';

/** Migration 0019: pipeline and stage names stored with a combining accent are rewritten to NFC, unless another active name already is that. */

const db = await createTestDatabase();
t.teardown(() => db.drop());

t.test('names are rewritten to NFC; one whose NFC form another active name has is kept; the rest of the row stays', async (t) => {
  const orm = await databaseAfterMigration(t, db, '0018-canonical-emails');
  await db.query(`insert into organizations (id, name, created_at) values ('org_nfc', 'Nfc', now())`);
  await db.query(`insert into workspaces (id, organization_id, name, created_at, updated_at) values ('ws_nfc', 'org_nfc', 'Nfc', now(), now())`);
  const pipeline = (id: string, name: string, isDefault = false) =>
    db.query(`insert into pipelines (id, workspace_id, name, is_default, created_at, updated_at) values ($1, 'ws_nfc', $2, $3, now(), '2026-01-02T00:00:00Z')`, [id, name, isDefault]);
  const stage = (id: string, pipelineId: string, name: string, position: number | null) =>
    db.query(
      `insert into stages (id, workspace_id, pipeline_id, name, position, archived_at, created_at, updated_at)
       values ($1, 'ws_nfc', $2, $3, $4, case when $4::int is null then now() end, now(), '2026-01-02T00:00:00Z')`,
      [id, pipelineId, name, position],
    );
  // As names were stored before writes normalised them.
  await pipeline('pipe_combining', 'Re\u0301seau', true);
  await pipeline('pipe_composed', 'Caf\u00e9');
  await pipeline('pipe_twin', 'Cafe\u0301');
  await stage('stg_combining', 'pipe_combining', 'Cre\u0300me', 0);
  await stage('stg_composed', 'pipe_combining', 'Th\u00e9', 1);
  await stage('stg_twin', 'pipe_combining', 'The\u0301', 2);
  await stage('stg_archived', 'pipe_combining', 'Cre\u0300me', null);
  await stage('stg_plain', 'pipe_combining', 'Won', 3);

  t.ok((await migrateDatabase(orm, db.url)).includes('0019-nfc-names'), '0019 ran');
  const names = async (table: string) =>
    Object.fromEntries((await db.query<{ id: string; name: string; updated_at: Date }>(`select id, name, updated_at from ${table} where workspace_id = 'ws_nfc'`)).map((r) => [r.id, r.name]));
  t.same(await names('pipelines'), { pipe_combining: 'R\u00e9seau', pipe_composed: 'Caf\u00e9', pipe_twin: 'Cafe\u0301' }, 'pipelines: rewritten, and the twin of an active NFC name kept');
  t.same(
    await names('stages'),
    { stg_combining: 'Cr\u00e8me', stg_composed: 'Th\u00e9', stg_twin: 'The\u0301', stg_archived: 'Cr\u00e8me', stg_plain: 'Won' },
    'stages: rewritten (an archived one too, which no index holds to one name), the twin kept',
  );
  const stamps = await db.query<{ n: string }>(`select count(*) as n from stages where workspace_id = 'ws_nfc' and updated_at <> '2026-01-02T00:00:00Z'`);
  t.equal(stamps[0]?.n, '0', 'updated_at unchanged: the name is the same name');
});
