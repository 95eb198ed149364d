import t from 'tap';
import { sql as sqlText } from 'kysely';
import { openDatabase } from '../../shared/db/orm.js';
import { PLANNED_PER_VALUE, PreparedStatementClient } from '../../shared/db/prepared-statement-client.js';
import { sqlOf } from '../../shared/db/sql.js';
import { createTestDatabase } from '../helpers/database.js';

/**
 * The hot statements run prepared (named), on real Postgres: parsed and planned once per
 * connection. A migration that changes a table under a prepared `select *` does not break
 * the connection's next call.
 */
const db = await createTestDatabase();
const client = new PreparedStatementClient({ connectionString: db.url });
await client.connect();
t.teardown(async () => {
  await client.end();
  await db.drop();
});

const prepared = async () => (await client.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);

t.test('a statement with parameters is prepared once and reused', async (t) => {
  await client.query('create table notes_under_test (id int primary key, body text)');
  await client.query('insert into notes_under_test values ($1, $2), ($3, $4)', [1, 'one', 2, 'two']);
  const select = 'select * from notes_under_test where id = $1';
  t.same((await client.query(select, [1])).rows, [{ id: 1, body: 'one' }]);
  t.same((await client.query(select, [2])).rows, [{ id: 2, body: 'two' }], 'the prepared statement runs with other values');
  t.equal((await prepared()).filter((s) => s === select).length, 1, 'one prepared statement on the connection');
  t.notOk((await prepared()).some((s) => s.startsWith('create table')), 'statements without parameters (DDL) run unprepared');
});

t.test('a statement marked as planned per value runs unnamed', async (t) => {
  const select = `select ${PLANNED_PER_VALUE} body from notes_under_test where body like $1`;
  t.same((await client.query(select, ['on%'])).rows, [{ body: 'one' }]);
  t.same((await client.query(select, ['tw%'])).rows, [{ body: 'two' }]);
  t.notOk((await prepared()).includes(select), 'not prepared: Postgres plans it for each value');
});

t.test('a table changed under a prepared select * does not break the next call', async (t) => {
  const select = 'select * from notes_under_test where id = $1';
  await client.query('alter table notes_under_test add column pinned boolean not null default false');
  t.same((await client.query(select, [1])).rows, [{ id: 1, body: 'one', pinned: false }], 'the new column is there');
  t.same((await client.query(select, [2])).rows, [{ id: 2, body: 'two', pinned: false }], 'and stays there');
});

t.test('a table changed under a statement prepared in a transaction: the statement fails once, with its own error, and runs unnamed after', async (t) => {
  await client.query('create table deals_under_test (id int primary key, name text)');
  await client.query('insert into deals_under_test values ($1, $2)', [1, 'one']);
  const select = 'select * from deals_under_test where id = $1';
  t.same((await client.query(select, [1])).rows, [{ id: 1, name: 'one' }], 'prepared');
  await client.query('alter table deals_under_test add column amount int');
  await client.query('begin');
  // Not "current transaction is aborted" from a second try in the same transaction: the stale plan itself, which the worker answers with a 503.
  await t.rejects(client.query(select, [1]), { code: '0A000', message: /cached plan must not change result type/ });
  await client.query('rollback');
  await client.query('begin');
  t.same((await client.query(select, [1])).rows, [{ id: 1, name: 'one', amount: null }], 'the retry runs it unnamed, in a transaction too');
  await client.query('commit');
});

t.test("the service's own connections prepare their statements", async (t) => {
  // One connection, so that the second query sees what the first prepared.
  const orm = await openDatabase({ url: db.url, poolMax: 1, applicationName: 'prepared statements test' });
  t.teardown(() => orm.close());
  const sql = sqlOf(orm.em.fork());
  await sql.selectFrom('workspaces').select('id').where('id', '=', 'ws_none').execute();
  const statements = await sqlText<{ statement: string }>`select statement from pg_prepared_statements`.execute(sql);
  t.ok(statements.rows.some((r) => r.statement.includes('from "workspaces"')), 'the Kysely query ran as a prepared statement');
});

t.test('several statements in one text still run (the simple protocol)', async (t) => {
  await client.query('update notes_under_test set pinned = true where id = 1; update notes_under_test set pinned = true where id = 2');
  t.same((await client.query('select count(*)::int as n from notes_under_test where pinned = $1', [true])).rows, [{ n: 2 }]);
});
