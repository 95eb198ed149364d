import pg from 'pg';
import t, { type Test } from 'tap';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { openDatabase, type Orm } from '../../shared/db/orm.js';
import { createTestDatabase, databaseAfterMigration } from '../helpers/database.js';

/**
 * A migration waiting for a table that a long transaction holds: before, every later query on
 * that table queued behind the migration until the transaction ended, so a rollout stalled the
 * running release's writes. Now each attempt waits a bounded time, rolls back, lets the queue
 * through, and tries again; the migration applies once the table is free.
 */
const db = await createTestDatabase();
t.teardown(() => db.drop());

t.test('a migration waiting for a held table does not stall the writes queued behind it', async (t) => {
  // 0015 adds triggers to contacts, which waits for every open write transaction on it.
  const orm = await databaseAfterMigration(t, db, '0014-webhook-delivery-lease');

  const holder = new pg.Client({ connectionString: db.url });
  const writer = new pg.Client({ connectionString: db.url });
  await holder.connect();
  await writer.connect();
  t.teardown(async () => {
    await holder.end();
    await writer.end();
  });
  // A write transaction left open on contacts (a long import's batch, a session idle in a transaction).
  await holder.query('begin');
  await holder.query('lock table contacts in row exclusive mode');

  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const log = { warn: (fields: Record<string, unknown>, message: string) => void warnings.push({ fields, message }) };
  const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
  const migrating = migrateDatabase(orm, db.url, { lockWaitMs: 300, log });
  migrating.catch(() => undefined);
  const until = Date.now() + 10_000;
  while ((await db.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%contacts_custom_fields_size%'`)).length === 0) {
    if (Date.now() > until) throw new Error('the migration never waited for contacts');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  // Another write to contacts, as the running release makes them.
  const started = Date.now();
  const written = writer.query('begin').then(() => writer.query('lock table contacts in row exclusive mode')).then(() => writer.query('commit'));
  const outcome = await Promise.race([written.then(() => 'written'), new Promise((resolve) => setTimeout(() => resolve('stalled'), 3_000))]);
  t.equal(outcome, 'written', `the write went through while the table was held (${Date.now() - started} ms)`);

  // The migration logs its wait after each rolled-back attempt, while the table is still held.
  while (!warnings.some((w) => /open transaction holds/.test(w.message))) {
    if (Date.now() > until) throw new Error('the wait was never logged');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await holder.query('commit');
  await written;
  const applied = await migrating;
  // Every later migration applies with it; naming them all here would break at each new one.
  t.equal(applied[0], '0015-custom-fields-size', 'the migration applied once the table was free');
  t.ok(applied.includes('0016-current-zone-names'), 'and those after it');
  const triggers = await db.query(`select tgname from pg_trigger where tgname = 'contacts_custom_fields_size'`);
  t.equal(triggers.length, 1);
  // Before, a migration retrying behind a held table said nothing: a rollout looked hung.
  const waited = warnings.find((w) => /open transaction holds/.test(w.message));
  t.ok(waited, 'the wait was logged');
  const oldest = (waited?.fields.oldest_transactions ?? []) as { pid: number }[];
  t.ok(oldest.some((row) => row.pid === holderPid), 'naming the transaction that held the table');
});

/** Another process holding the migration lock (as while it migrates), and an ORM to migrate with; both closed after the test. */
async function anotherMigrationUnderWay(t: Test): Promise<{ holder: pg.Client; orm: Orm }> {
  const holder = new pg.Client({ connectionString: db.url });
  await holder.connect();
  t.teardown(() => holder.end());
  await holder.query('select pg_advisory_lock(7331001)');
  const orm = await openDatabase({ url: db.url, poolMax: 2, applicationName: 'crm tests' });
  t.teardown(() => orm.close());
  return { holder, orm };
}

t.test('a migration waiting for another process\'s migration says so, then goes on', async (t) => {
  const { holder, orm } = await anotherMigrationUnderWay(t);

  const messages: string[] = [];
  const migrating = migrateDatabase(orm, db.url, { log: { warn: (_fields, message) => void messages.push(message) } });
  const until = Date.now() + 10_000;
  while (messages.length === 0) {
    if (Date.now() > until) throw new Error('the wait was never logged');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.match(messages[0], /another process is applying migrations/);
  await holder.query('select pg_advisory_unlock(7331001)');
  t.same(await migrating, [], 'it went on once the other process finished (nothing was left pending)');
});

t.test('the connection waiting for the migration lock lost: the migration fails with a message, the process lives on', async (t) => {
  const { orm } = await anotherMigrationUnderWay(t);

  const migrating = migrateDatabase(orm, db.url);
  migrating.catch(() => undefined);
  const until = Date.now() + 10_000;
  const waitingPid = async (): Promise<number> => {
    for (;;) {
      const rows = await db.query<{ pid: number }>(`select pid from pg_stat_activity where application_name = 'crm migrate' and wait_event_type = 'Lock'`);
      if (rows[0]) return rows[0].pid;
      if (Date.now() > until) throw new Error('the migration never waited for its lock');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  // Before, the lock's client emitted an 'error' nobody listened to: it ended this process.
  await db.query('select pg_terminate_backend($1)', [await waitingPid()]);
  await t.rejects(migrating, /Lost the connection waiting for the migration lock: .*Nothing was applied; run it again\./);
});
