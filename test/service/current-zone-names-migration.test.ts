import t from 'tap';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { createTestDatabase, databaseAfterMigration } from '../helpers/database.js';

/** Migration 0016: workspaces saved with ICU's old zone names are renamed to the current IANA ones. */

const db = await createTestDatabase();
t.teardown(() => db.drop());

t.test('an old name becomes the current one; other zones stay as they are', async (t) => {
  // As a workspace saved before 0016 stored it.
  const orm = await databaseAfterMigration(t, db, '0015-custom-fields-size');
  await db.query(`insert into organizations (id, name, created_at) values ('org_zones', 'Zones', now())`);
  await db.query(
    `insert into workspaces (id, organization_id, name, created_at, updated_at, time_zone) values
       ('ws_calcutta', 'org_zones', 'Calcutta', now(), now(), 'Asia/Calcutta'),
       ('ws_kiev', 'org_zones', 'Kiev', now(), now(), 'Europe/Kiev'),
       ('ws_berlin', 'org_zones', 'Berlin', now(), now(), 'Europe/Berlin')`,
  );
  // Those after it run too: only that 0016 is among them matters here.
  t.ok((await migrateDatabase(orm, db.url)).includes('0016-current-zone-names'), '0016 ran');
  const zones = await db.query<{ id: string; time_zone: string }>(`select id, time_zone from workspaces where organization_id = 'org_zones' order by id`);
  t.same(zones, [
    { id: 'ws_berlin', time_zone: 'Europe/Berlin' },
    { id: 'ws_calcutta', time_zone: 'Asia/Kolkata' },
    { id: 'ws_kiev', time_zone: 'Europe/Kyiv' },
  ]);
});
