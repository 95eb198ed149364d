import { Registry } from 'prom-client';
import t from 'tap';
import { startGateway } from '../../gateway/start-gateway.js';
import { BusClient } from '../../shared/bus/bus-client.js';
import { InProcessTransport } from '../../shared/bus/in-process-transport.js';
import { queueOf, subjectOf, WORKER_NAMES } from '../../shared/bus/operation.js';
import { encodeReply } from '../../shared/bus/reply.js';
import { loadConfig } from '../../shared/config.js';
import { healthOf } from '../../shared/contracts/health.js';
import { createLogger } from '../../shared/logger.js';

/**
 * The public /readyz needs no credential, and each probe asks every worker, which asks
 * Postgres. Before, every request made its own probe: a flood of them was a flood of bus
 * calls and queries. Here the workers are stand-ins that count the health checks they answer.
 */
const config = loadConfig({ PORT: '0' });
const log = createLogger({ level: 'silent', component: 'test', destination: { write: () => undefined } });
const transport = new InProcessTransport();
let checks = 0;
for (const worker of WORKER_NAMES) {
  const op = healthOf(worker);
  transport.subscribe(subjectOf(config.busNamespace, op), queueOf(config.busNamespace, worker), async () => {
    checks++;
    // A slow answer (within the gateway's 2 s probe timeout), so all 50 requests of the flood
    // arrive while the one probe is in flight even on a loaded machine: with 50 ms, arrivals
    // spread past the 500 ms reuse could start a second probe (CI saw 15 checks for 10).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return encodeReply(op, { worker, database: 'ok' });
  });
}
const gateway = await startGateway(new BusClient(transport, config.busNamespace, config.busTimeoutMs), config, log, new Registry());
t.teardown(async () => {
  await gateway.close();
  await transport.close();
});
const readyz = async () => (await fetch(`${gateway.url}/readyz`)).status;

t.test('a flood of /readyz requests shares one probe of the workers', async (t) => {
  const flood = Array.from({ length: 50 }, readyz);
  // The first answer of the flood comes the moment the probe is answered: a request sent then
  // must reuse it. Sent after all 50 were read, it could come later than the 500 ms reuse on a
  // loaded machine (CI saw that), since this process runs the gateway and the client both.
  await Promise.race(flood);
  t.equal(await readyz(), 200);
  t.equal(checks, WORKER_NAMES.length, 'a request right after the answer reuses it');
  const statuses = await Promise.all(flood);
  t.same(new Set(statuses), new Set([200]), 'every request is answered: ready');
  t.equal(checks, WORKER_NAMES.length, 'one health check per worker for all 50 (before: 50 each)');
  await new Promise((resolve) => setTimeout(resolve, 600));
  t.equal(await readyz(), 200);
  t.equal(checks, 2 * WORKER_NAMES.length, 'half a second later, the workers are asked again');
});
