import t from 'tap';
import { whileHeld } from '../helpers/held-lock.js';
import { startStack } from '../helpers/stack.js';

/**
 * A worker whose every pooled connection stays busy (here its one connection waits for a row
 * that another transaction holds): a request that waits 3 s in vain for a connection was
 * answered "The database is not reachable right now" and logged as the database being
 * unavailable, which sent an operator to check a database that was answering. It is the
 * worker's pool that is short, and the answer and the log line now say so.
 */
const stack = await startStack({ workers: { contacts: 1 }, env: { DB_POOL_MAX: '1', BUS_TIMEOUT_MS: '15000' } });
t.teardown(() => stack.stop());
const ws = await stack.bootstrap({});
const token = await stack.token(ws.workspace.id, ['contacts:read', 'contacts:write']);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

t.test('a request that finds no free connection is told the service is busy, not that the database is unreachable', async (t) => {
  const created = await fetch(`${stack.baseUrl}/v1/contacts`, { method: 'POST', headers, body: JSON.stringify({ first_name: 'Held', phone: '+1 415 555 0199' }) });
  t.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };

  let refused: { status: number; body: { error?: { code?: string; message?: string } }; retryAfter: string | null } | undefined;
  const { result: updated, waited } = await whileHeld(
    stack.db.url,
    [{ sql: 'select 1 from contacts where id = $1 for update', params: [id] }],
    // The update takes the worker's one connection and waits for the held row.
    () => fetch(`${stack.baseUrl}/v1/contacts/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ first_name: 'Changed' }) }),
    [],
    async () => {
      // A create without an idempotency key is sent once (a read would be sent again, and time out).
      const res = await fetch(`${stack.baseUrl}/v1/contacts`, { method: 'POST', headers, body: JSON.stringify({ first_name: 'Second', phone: '+1 415 555 0198' }) });
      refused = { status: res.status, body: (await res.json()) as never, retryAfter: res.headers.get('retry-after') };
    },
  );
  t.equal(updated.status, 200, 'the update went through once the row was free');
  const count = await stack.db.query(`select 1 from contacts where first_name = 'Second'`);
  t.equal(count.length, 0, 'the refused create stored nothing');

  t.ok(waited, 'the update waited for the held row');
  t.equal(refused?.status, 503);
  t.equal(refused?.body.error?.code, 'unavailable');
  t.match(refused?.body.error?.message, /busy: no database connection came free/);
  t.ok(refused?.retryAfter, 'with Retry-After');
  const output = await stack.allOutput();
  t.match(output, /no database connection of this worker came free in time: all were in use or still connecting; if the database answers, raise DB_POOL_MAX/);
  t.notMatch(output, /"msg":"database unavailable"/, 'not logged as the database being unavailable');
});
