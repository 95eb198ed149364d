import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import t from 'tap';
import { afterPosition } from '../../workers/runtime/keyset-sql.js';

// Compiles without a database: the SQL text is what Postgres plans with.
const db = new Kysely<{ contacts: { id: string; created_at: Date } }>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const position = { createdAt: new Date('2026-03-01T10:00:00.123Z'), id: 'con_X' };

t.test('rows after a position, with a leading created_at >= for the index', async (t) => {
  const query = db.selectFrom('contacts').select('id').where(afterPosition(position)).compile();
  t.equal(query.sql, 'select "id" from "contacts" where ("created_at" >= $1 and ("created_at" > $2 or "id" > $3))');
  t.same(query.parameters, [position.createdAt, position.createdAt, 'con_X']);
});

t.test('qualified by a table alias when the query joins', async (t) => {
  const query = db.selectFrom('contacts as c').select('c.id').where(afterPosition(position, 'c')).compile();
  t.match(query.sql, /where \("c"\."created_at" >= \$1 and \("c"\."created_at" > \$2 or "c"\."id" > \$3\)\)$/);
});

