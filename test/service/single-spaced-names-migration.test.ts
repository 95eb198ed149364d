import t from 'tap';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { createTestDatabase, databaseAfterMigration } from '../helpers/database.js';

/** Migration 0020: pipeline and stage names and custom field labels are trimmed and single-spaced, unless another active name already is that. */

const db = await createTestDatabase();
t.teardown(() => db.drop());

t.test('names are single-spaced; one whose single-spaced form another active name has is kept; the rest of the row stays', async (t) => {
  const orm = await databaseAfterMigration(t, db, '0019-nfc-names');
  await db.query(`insert into organizations (id, name, created_at) values ('org_spaced', 'Spaced', now())`);
  await db.query(`insert into workspaces (id, organization_id, name, created_at, updated_at) values ('ws_spaced', 'org_spaced', 'Spaced', now(), now())`);
  const pipeline = (id: string, name: string, isDefault = false) =>
    db.query(`insert into pipelines (id, workspace_id, name, is_default, created_at, updated_at) values ($1, 'ws_spaced', $2, $3, now(), '2026-01-02T00:00:00Z')`, [id, name, isDefault]);
  const stage = (id: string, pipelineId: string, name: string, position: number | null) =>
    db.query(
      `insert into stages (id, workspace_id, pipeline_id, name, position, archived_at, created_at, updated_at)
       values ($1, 'ws_spaced', $2, $3, $4, case when $4::int is null then now() end, now(), '2026-01-02T00:00:00Z')`,
      [id, pipelineId, name, position],
    );
  // As names were stored before writes single-spaced them.
  await pipeline('pipe_doubled', 'New  business', true);
  await pipeline('pipe_plain', 'Renewals');
  await pipeline('pipe_twin', ' renewals\u00a0');
  // Two old twins, neither single-spaced: the older gets the name (though it was stored last and its id sorts last).
  for (const [id, name, createdAt] of [
    ['pipe_aa_newer', 'Key   accounts', '2025-06-01T00:00:00Z'],
    ['pipe_zz_older', 'Key  accounts', '2025-01-01T00:00:00Z'],
  ]) {
    await db.query(`insert into pipelines (id, workspace_id, name, is_default, created_at, updated_at) values ($1, 'ws_spaced', $2, false, $3, '2026-01-02T00:00:00Z')`, [id, name, createdAt]);
  }
  await stage('stg_doubled', 'pipe_doubled', 'Closed  Won', 0);
  await stage('stg_wide', 'pipe_doubled', 'Closed\u3000Lost', 1);
  await stage('stg_plain', 'pipe_doubled', 'Lead', 2);
  await stage('stg_twin', 'pipe_doubled', 'Lead ', 3);
  await stage('stg_archived', 'pipe_doubled', 'Closed  Won', null);
  await db.query(
    `insert into custom_fields (id, workspace_id, object_type, key, label, type, created_at, updated_at)
     values ('cf_spaced', 'ws_spaced', 'deal', 'deal_size', ' Deal   size ', 'number', now(), '2026-01-02T00:00:00Z')`,
  );

  t.ok((await migrateDatabase(orm, db.url)).includes('0020-single-spaced-names'), '0020 ran');
  const names = async (table: string) => Object.fromEntries((await db.query<{ id: string; name: string }>(`select id, name from ${table} where workspace_id = 'ws_spaced'`)).map((r) => [r.id, r.name]));
  t.same(
    await names('pipelines'),
    { pipe_doubled: 'New business', pipe_plain: 'Renewals', pipe_twin: ' renewals\u00a0', pipe_zz_older: 'Key accounts', pipe_aa_newer: 'Key   accounts' },
    'pipelines: single-spaced, the twin of an active name kept, and of two old twins the older single-spaced',
  );
  t.same(
    await names('stages'),
    { stg_doubled: 'Closed Won', stg_wide: 'Closed Lost', stg_plain: 'Lead', stg_twin: 'Lead ', stg_archived: 'Closed Won' },
    'stages: single-spaced (an archived one too, which no index holds to one name), the twin kept',
  );
  const labels = await db.query<{ label: string }>(`select label from custom_fields where id = 'cf_spaced'`);
  t.equal(labels[0]?.label, 'Deal size', 'custom field labels: single-spaced');
  const stamps = await db.query<{ n: string }>(
    `select (select count(*) from stages where workspace_id = 'ws_spaced' and updated_at <> '2026-01-02T00:00:00Z')
          + (select count(*) from pipelines where workspace_id = 'ws_spaced' and updated_at <> '2026-01-02T00:00:00Z')
          + (select count(*) from custom_fields where workspace_id = 'ws_spaced' and updated_at <> '2026-01-02T00:00:00Z') as n`,
  );
  t.equal(stamps[0]?.n, '0', 'updated_at unchanged: the name is the same name');

  // Run again (a migration table restored from before it): nothing changes.
  const before = { pipelines: await names('pipelines'), stages: await names('stages') };
  await db.query(`delete from crm_migrations where name like '0020%'`);
  t.ok((await migrateDatabase(orm, db.url)).includes('0020-single-spaced-names'), '0020 ran again');
  t.same({ pipelines: await names('pipelines'), stages: await names('stages') }, before, 'and changed nothing');
});
