import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable } from 'kysely';
import t from 'tap';
import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { workspaceSql, type WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { WORKSPACE_TABLES } from '../../shared/db/workspace-tables.js';
import { activeFieldKeysSql, fieldDefinitionsSql } from '../../workers/schema/custom-field-definitions.js';

/** Compiles Postgres SQL without a database: the bound builder only needs `getKysely()`. */
function compileOnlyEm(): EntityManager {
  const kysely = new Kysely<Record<string, Record<string, unknown>>>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { getKysely: () => kysely } as unknown as EntityManager;
}

const WS = 'ws_A';
const em = compileOnlyEm();
const db = workspaceSql(em, WS);

/** Each `"<alias>"."workspace_id" = $n` of the statement, and whether $n is the bound workspace. */
function workspaceConditions(query: Compilable): { alias: string; bound: boolean }[] {
  const { sql, parameters } = query.compile();
  return [...sql.matchAll(/"(\w+)"\."workspace_id" = \$(\d+)/g)].map((m) => ({ alias: m[1] as string, bound: parameters[Number(m[2]) - 1] === WS }));
}

t.test('selects, updates and deletes on every workspace table carry the workspace', async (t) => {
  for (const name of WORKSPACE_TABLES) {
    // One table's types stand for all of them; the SQL names the real one.
    const table = name as 'contacts';
    t.same(workspaceConditions(db.selectFrom(table).selectAll()), [{ alias: name, bound: true }], `select ${name}`);
    t.same(workspaceConditions(db.updateTable(table).set({ created_at: new Date() })), [{ alias: name, bound: true }], `update ${name}`);
    t.same(workspaceConditions(db.deleteFrom(table)), [{ alias: name, bound: true }], `delete ${name}`);
  }
});

t.test('an alias carries the condition, and the caller’s own conditions are kept', async (t) => {
  const query = db.selectFrom('contacts as c').select('c.id').where('c.phone', '=', '+4420');
  t.same(workspaceConditions(query), [{ alias: 'c', bound: true }]);
  t.match(query.compile().sql, /"c"\."workspace_id" = \$1 and "c"\."phone" = \$2/);
  t.same(workspaceConditions(db.updateTable('stages as s').set({ name: 'x' }).where('s.id', '=', 'stg_1')), [{ alias: 's', bound: true }]);
});

t.test('a joined workspace table is constrained too', async (t) => {
  const query = db.selectFrom('stages as s').innerJoin(db.table('pipelines', 'p'), 'p.id', 's.pipeline_id').select(['s.id', 'p.name']);
  t.same(workspaceConditions(query), [
    { alias: 'pipelines', bound: true },
    { alias: 's', bound: true },
  ]);
  t.match(query.compile().sql, /inner join \(select \* from "pipelines" where "pipelines"\."workspace_id" = \$\d+\) as "p"/);
});

t.test('subqueries on custom fields are bound and parenthesised', async (t) => {
  const query = db.selectFrom('contacts').selectAll().select(activeFieldKeysSql(db, 'contact').as('field_keys'));
  t.same(workspaceConditions(query), [
    { alias: 'f', bound: true },
    { alias: 'contacts', bound: true },
  ]);
  const setup = db.global.selectFrom('workspaces').select(fieldDefinitionsSql(db, 'deal').as('fields')).where('id', '=', WS);
  t.same(workspaceConditions(setup), [{ alias: 'f', bound: true }]);
  t.match(setup.compile().sql, /select \(select coalesce\(json_agg/);
});

t.test('inserts must name the bound workspace', async (t) => {
  const now = new Date();
  const row = { id: 'pipe_1', name: 'Sales', is_default: false, archived_at: null, created_at: now, updated_at: now };
  const { sql, parameters } = db.insertInto('pipelines').values({ ...row, workspace_id: WS }).compile();
  t.match(sql, /"workspace_id"/);
  t.ok(parameters.includes(WS));
  t.throws(() => db.insertInto('pipelines').values({ ...row, workspace_id: 'ws_B' }), /another workspace/);
  t.throws(() => db.insertInto('pipelines').values([{ ...row, workspace_id: WS }, { ...row, id: 'pipe_2', workspace_id: 'ws_B' }]), /another workspace/);
});

t.test('within() keeps the workspace on another entity manager', async (t) => {
  const other = db.within(compileOnlyEm());
  t.equal(other.workspaceId, WS);
  t.same(workspaceConditions(other.selectFrom('deals').select('id')), [{ alias: 'deals', bound: true }]);
});

/**
 * Never run: `npm run typecheck` fails if any of these unscoped queries starts to
 * compile (an unused @ts-expect-error is an error).
 */
function _unscopedQueriesDoNotCompile(bound: WorkspaceSql): void {
  // @ts-expect-error the unbound builder has no workspace tables
  void sqlOf(em).selectFrom('contacts');
  // @ts-expect-error nor can it update one
  void sqlOf(em).updateTable('deals');
  // @ts-expect-error a join to another workspace table must go through bound.table()
  void bound.selectFrom('deals').innerJoin('contacts', 'contacts.id', 'deals.contact_id');
  // @ts-expect-error nor a subquery
  void bound.selectFrom('deals').where('contact_id', 'in', (eb) => eb.selectFrom('contacts').select('id'));
  // @ts-expect-error global tables are not workspace-bound (use bound.global)
  void bound.selectFrom('users');
  // @ts-expect-error a row never moves to another workspace
  void bound.updateTable('contacts').set({ workspace_id: 'ws_B' });
}
