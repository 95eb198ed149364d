import net from 'node:net';
import t from 'tap';
import { CrmProcess } from '../helpers/process.js';
import { startStack } from '../helpers/stack.js';

/**
 * A gateway process stopped (SIGTERM) while a write waits for its worker, as a rolling update
 * does. Before, the gateway gave requests in flight 10 s whatever BUS_TIMEOUT_MS said: with a
 * longer deadline (up to 60 s) a write the worker then applied had its connection cut instead
 * of its 201, and the answers it did give said `Connection: keep-alive`, inviting the client
 * to send its next request on a connection about to close. And a request its grace period
 * cut left no line at all: neither its request line (never answered) nor any other.
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

t.test('a request still in flight when the grace period ends is cut, and the gateway says so', async (t) => {
  // BUS_TIMEOUT_MS 1 s: the grace period is its least, 10 s.
  const gateway = new CrmProcess('gateway (short deadline)', ['gateway'], { ...stack.envFor('gateway'), BUS_TIMEOUT_MS: '1000' });
  t.teardown(() => gateway.stop('SIGKILL'));
  const [, port] = await gateway.waitFor(/"port":(\d+)/);
  // A client that sends part of a body, then nothing: its request never ends on its own.
  const socket = net.connect(Number(port), '127.0.0.1');
  t.teardown(() => socket.destroy());
  await new Promise((resolve) => socket.once('connect', resolve));
  const closed = new Promise<string>((resolve) => {
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.once('close', () => resolve(answer));
  });
  socket.write('POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=');
  await new Promise((r) => setTimeout(r, 300));

  const stopping = Date.now();
  t.equal(await gateway.stop('SIGTERM', 30_000), 0, 'the gateway exits 0');
  const took = Date.now() - stopping;
  t.ok(took >= 9_500 && took < 15_000, `after its grace period, 10 s (${took} ms)`);
  t.equal(await closed, '', 'the stalled request was cut, unanswered');
  t.match(await gateway.settledText(), /"level":"warn"[^\n]*"requests":1,"grace_ms":10000,"msg":"shutdown grace period ended: requests still in flight were cut"/, 'and the log says how many were cut');
});
