import { whileHeld } from '../helpers/held-lock.js';
import t from 'tap';
import { startStack } from '../helpers/stack.js';

/**
 * DB_STATEMENT_TIMEOUT_MS: a statement that runs (or waits for a lock) past it is cancelled by
 * Postgres. Before, no statement was ever bounded, so one stuck behind a long transaction held
 * its worker's connection long after the client had its 503; and a cancelled statement
 * (57014, class 57) was told to the client as the database being unreachable.
 */
const stack = await startStack({ workers: { contacts: 1 }, env: { DB_STATEMENT_TIMEOUT_MS: '2000' } });
t.teardown(() => stack.stop());
const ws = await stack.bootstrap({});
const token = await stack.token(ws.workspace.id, ['contacts:read', 'contacts:write']);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

t.test('a write stuck behind a held row is cancelled at the limit and answered 503, changing nothing', async (t) => {
  const created = await fetch(`${stack.baseUrl}/v1/contacts`, { method: 'POST', headers, body: JSON.stringify({ first_name: 'Held', phone: '+1 415 555 0197' }) });
  t.equal(created.status, 201, 'a statement within the limit runs as ever');
  const { id } = (await created.json()) as { id: string };

  let patching: Promise<Response> | undefined;
  const patch = () => (patching = fetch(`${stack.baseUrl}/v1/contacts/${id}`, { method: 'PATCH', headers, body: JSON.stringify({ first_name: 'Changed' }) }));
  // The row stays held until the answer: the limit, not the holder's commit, ends the wait.
  const { result: res } = await whileHeld(stack.db.url, [{ sql: 'select 1 from contacts where id = $1 for update', params: [id] }], patch, [], async () => void (await patching));
  const body = (await res.json()) as { error?: { code?: string; message?: string } };

  t.equal(res.status, 503);
  t.equal(body.error?.code, 'unavailable');
  t.match(body.error?.message, /took too long over this request and cancelled it; nothing was changed/);
  t.ok(res.headers.get('retry-after'), 'with Retry-After');
  const rows = await stack.db.query<{ first_name: string }>('select first_name from contacts where id = $1', [id]);
  t.equal(rows[0]?.first_name, 'Held', 'the contact is unchanged');
  const events = await stack.db.query(`select 1 from events where type = 'contact.updated'`);
  t.equal(events.length, 0, 'and no event was recorded');
  const output = await stack.allOutput();
  t.match(output, /a statement ran past DB_STATEMENT_TIMEOUT_MS/);
  t.notMatch(output, /"msg":"database unavailable"/, 'not logged as the database being unavailable');
});
