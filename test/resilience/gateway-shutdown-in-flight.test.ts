import t from 'tap';
import { startStack } from '../helpers/stack.js';

/**
 * A gateway process stopped (SIGTERM) while a write waits for its worker, as a rolling update
 * does. Before, the gateway gave requests in flight 10 s whatever BUS_TIMEOUT_MS said: with a
 * longer deadline (up to 60 s) a write the worker then applied had its connection cut instead
 * of its 201, and the answers it did give said `Connection: keep-alive`, inviting the client
 * to send its next request on a connection about to close.
 */
const BUS_TIMEOUT_MS = 15_000;
const stack = await startStack({ env: { BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS) } });
t.teardown(() => stack.stop());
const ws = await stack.bootstrap();
const token = await stack.token(ws.workspace.id, ['contacts:read', 'contacts:write']);

const describe = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return `failed: ${cause instanceof Error ? cause.message : String(cause)}`;
};

t.test('a write in flight within BUS_TIMEOUT_MS gets its answer, the connection closed after it; then the gateway exits 0', async (t) => {
  const worker = stack.workers.find((w) => w.label === 'worker contacts');
  const pid = worker?.pid;
  if (pid === undefined) throw new Error('no contacts worker');
  // The worker holds the request (stopped) past the 10 s the gateway used to grant.
  process.kill(pid, 'SIGSTOP');
  let resumed = false;
  const resume = () => {
    if (!resumed) process.kill(pid, 'SIGCONT');
    resumed = true;
  };
  t.teardown(resume);

  const inFlight = fetch(`${stack.baseUrl}/v1/contacts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'In flight', phone: '+14155550142' }),
  }).then(
    async (res) => ({ status: res.status, connection: res.headers.get('connection'), body: await res.text() }),
    (error: unknown) => ({ status: 0, connection: null, body: describe(error) }),
  );
  await new Promise((r) => setTimeout(r, 500));
  const stopping = Date.now();
  const exited = stack.gateway.stop('SIGTERM', 60_000);
  await stack.gateway.waitFor(/"msg":"shutting down"/);
  const late = await fetch(`${stack.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then(
    (res) => `answered ${res.status}`,
    (error: unknown) => describe(error),
  );
  t.match(late, /ECONNREFUSED/, 'a new connection is refused at once');

  await new Promise((r) => setTimeout(r, 11_500 - (Date.now() - stopping)));
  resume();
  const answer = await inFlight;
  t.equal(answer.status, 201, `the write in flight is answered (${answer.body.slice(0, 200)})`);
  t.equal(answer.connection, 'close', 'and its connection closed after the answer');
  t.equal(await exited, 0, 'the gateway exits 0');
  t.ok(Date.now() - stopping < BUS_TIMEOUT_MS + 5_000, 'within its bound');
  t.match(await stack.gateway.settledText(), /"signal":"SIGTERM","msg":"shutting down"[^]*"msg":"stopped"/, 'and logs its shutdown');
  const rows = await stack.db.query<{ n: string }>("select count(*)::text as n from contacts where phone = '+14155550142'");
  t.equal(rows[0]?.n, '1', 'the write is stored once');
});
