import t from 'tap';
import { databaseRefusal } from '../../cli/database-refusal.js';

/** As pg reports a server's refusal: its severity and SQLSTATE; the ORM wraps it (`cause`). */
const refused = (code: string, message: string) => Object.assign(new Error(message), { severity: 'FATAL', code });

t.test('a refusal that lasts points at DATABASE_URL; one that passes says so', async (t) => {
  const absent = databaseRefusal(new Error('wrapped', { cause: refused('3D000', 'database "x" does not exist') }));
  t.same(absent, { message: 'Postgres refused the connection: database "x" does not exist (SQLSTATE 3D000). Check DATABASE_URL.', lasting: true });
  t.match(databaseRefusal(refused('28P01', 'password authentication failed for user "crm"')), { lasting: true, message: /Check DATABASE_URL\.$/ });
  const passingRefusals: [string, string][] = [
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
  ];
  for (const [code, message] of passingRefusals) {
    const passing = databaseRefusal(refused(code, message));
    t.equal(passing?.lasting, false, code);
    t.equal(passing?.message, `Postgres refused the connection: ${message} (SQLSTATE ${code}). It passes: try again shortly.`, `${code}: not a fault of DATABASE_URL`);
  }
  t.equal(databaseRefusal(refused('23505', 'duplicate key')), null, 'another error is no refusal');
});
