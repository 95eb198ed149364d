import http from 'node:http';
import { Registry } from 'prom-client';
import t from 'tap';
import { startGateway } from '../../gateway/start-gateway.js';
import { BusClient } from '../../shared/bus/bus-client.js';
import { InProcessTransport } from '../../shared/bus/in-process-transport.js';
import { queueOf, subjectOf } from '../../shared/bus/operation.js';
import { encodeReply } from '../../shared/bus/reply.js';
import { loadConfig } from '../../shared/config.js';
import { healthOf } from '../../shared/contracts/health.js';
import { createLogger } from '../../shared/logger.js';

/**
 * The gateway's shutdown with clients on keep-alive connections, as load balancers and
 * agents hold them. Before, a response finished during shutdown kept its connection open
 * (`Connection: keep-alive`), the client sent its next requests on it and they were
 * served, until the grace period ended and cut whatever was in flight then; the
 * shutdown itself always took the whole grace period.
 */
const config = loadConfig({ PORT: '0' });
const log = createLogger({ level: 'silent', component: 'test', destination: { write: () => undefined } });
const transport = new InProcessTransport();
const bus = new BusClient(transport, config.busNamespace, config.busTimeoutMs);
// One worker that answers its health check slowly: a request still in flight when the shutdown begins.
const slowHealth = healthOf('contacts');
transport.subscribe(subjectOf(config.busNamespace, slowHealth), queueOf(config.busNamespace, 'contacts'), async () => {
  await new Promise((resolve) => setTimeout(resolve, 400));
  return encodeReply(slowHealth, { worker: 'contacts', database: 'ok' });
});
const gateway = await startGateway(bus, config, log, new Registry());
t.teardown(() => transport.close());

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
t.teardown(() => agent.destroy());
function get(path: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: gateway.port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      })
      .on('error', reject);
  });
}

t.test('a shutdown lets the request in flight finish, closes its connection, and ends without waiting out the grace period', async (t) => {
  t.equal((await get('/healthz')).connection, 'keep-alive', 'a keep-alive connection is open');
  const inFlight = get('/readyz');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  const closed = gateway.close(5_000).then(() => Date.now() - started);

  t.equal((await inFlight).status, 503, 'the request in flight is answered (the other workers are missing)');
  // Sent at once on the same connection: it may reach the gateway before the connection is
  // closed, and is then answered whole, with its connection closed after it.
  const late = await get('/healthz').then(
    (res) => `served: ${res.status}, connection: ${res.connection}`,
    (error: NodeJS.ErrnoException) => `refused: ${error.code ?? error.message}`,
  );
  t.match(late, /^(refused|served: 200, connection: close)/, 'a request sent during the shutdown is answered and its connection closed, or finds none');
  t.ok((await closed) < 2_000, 'the shutdown ended once the request in flight was answered');
  t.match(
    await get('/healthz').then(
      () => 'served',
      (error: NodeJS.ErrnoException) => `refused: ${error.code ?? error.message}`,
    ),
    /^refused/,
    'then nothing is served',
  );
});
