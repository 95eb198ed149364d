import t from 'tap';
import { checkViolation, foreignKeyViolation, postgresErrorOf, uniqueViolation } from '../../shared/db/sql.js';
import { isDatabaseOutOfResources } from '../../workers/runtime/database-out-of-resources.js';
import { isTransactionConflict } from '../../workers/runtime/transaction-conflict.js';

/** As pg throws it, and as the ORM and a transaction wrap it (`cause`). */
const pgError = (code: string, constraint?: string) => Object.assign(new Error('from pg'), { code, ...(constraint ? { constraint } : {}) });
const wrapped = (cause: unknown, fields: Record<string, unknown> = {}) => Object.assign(new Error('wrapped', { cause }), fields);

t.test('a Postgres error is found by its SQLSTATE in the error or its causes', async (t) => {
  t.equal(uniqueViolation(pgError('23505', 'contacts_workspace_phone_key')), 'contacts_workspace_phone_key');
  t.equal(foreignKeyViolation(wrapped(wrapped(pgError('23503', 'contacts_owner_fkey')))), 'contacts_owner_fkey', 'two wrappers deep');
  t.equal(checkViolation(wrapped(pgError('23514', 'crm_limit_custom_fields_size'), { sqlState: '23514' })), 'crm_limit_custom_fields_size', 'a wrapper with the state but no constraint is looked through');
  t.equal(uniqueViolation(pgError('23503', 'contacts_owner_fkey')), null, 'another state is not a match');
  t.equal(foreignKeyViolation(new Error('no state')), null);
  t.ok(isTransactionConflict(wrapped(pgError('40P01'))), 'a deadlock, wrapped');
  t.ok(isTransactionConflict(Object.assign(new Error('x'), { sqlState: '40001' })), 'a serialization failure, as the ORM names it');
  t.notOk(isTransactionConflict(pgError('23505', 'k')));
  const loop: Error & { cause?: unknown } = new Error('loop');
  loop.cause = loop;
  t.equal(postgresErrorOf(loop, new Set(['23505'])), null, 'a cause that is itself ends the walk');
});

t.test('a database out of resources is told apart from a fault of the request', async (t) => {
  t.ok(isDatabaseOutOfResources(wrapped(pgError('53300'))), 'too many connections, wrapped');
  t.ok(isDatabaseOutOfResources(Object.assign(new Error('x'), { sqlState: '53200' })), 'out of memory, as the ORM names it');
  t.ok(isDatabaseOutOfResources(pgError('53100')), 'disk full');
  t.notOk(isDatabaseOutOfResources(pgError('23505', 'k')), 'a unique violation is the request\'s');
  t.notOk(isDatabaseOutOfResources(pgError('42P01')), 'an undefined table is a fault');
});
