import os from 'node:os';
import t from 'tap';
import { natsEnvOf } from '../helpers/nats-server.js';
import { startPrivateNats } from '../helpers/private-services.js';
import { CrmProcess } from '../helpers/process.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * What the unauthenticated world learns from the ports: the public /readyz says which part is
 * down and never why, and the admin port (metrics, detailed readiness) listens on loopback
 * unless ADMIN_HOST says otherwise. Lone gateways on a NATS of the test's own with no workers,
 * so that every worker check fails.
 */
const stack = await useStack(t);
const nats = await startPrivateNats();
t.teardown(() => nats.stop());

async function loneGateway(extra: Record<string, string>): Promise<{ gateway: CrmProcess; base: string; adminPort: number }> {
  const env = { PATH: process.env.PATH, ...natsEnvOf(nats.plan, 'gateway'), PORT: '0', ADMIN_PORT: '0', BUS_TIMEOUT_MS: '1000', ...extra };
  const gateway = new CrmProcess('lone gateway', ['gateway'], env);
  t.teardown(() => gateway.stop());
  const [, port] = await gateway.waitFor(/"port":(\d+)/);
  const [, adminPort] = await gateway.waitFor(/"admin_port":(\d+)/);
  return { gateway, base: `http://127.0.0.1:${port}`, adminPort: Number(adminPort) };
}

/** Whether an HTTP request to this address and port is answered at all. */
async function answers(host: string, port: number): Promise<boolean> {
  return fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );
}

const [byDefault, everywhere] = await Promise.all([loneGateway({}), loneGateway({ ADMIN_HOST: '0.0.0.0' })]);
const external = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a?.family === 'IPv4' && !a.internal)?.address;

t.test('the public /readyz names the parts that are down, never the error', async (t) => {
  // Before, each failed check carried the internal error text (e.g. "503 no responders") to anyone.
  const res = await fetch(`${byDefault.base}/readyz`);
  t.equal(res.status, 503);
  const body = (await res.json()) as { status: string; checks: Record<string, string> };
  t.equal(body.status, 'not_ready');
  t.same(Object.keys(body).sort(), ['checks', 'status']);
  t.same(new Set(Object.values(body.checks)), new Set(['ok', 'unavailable']), 'only ok or unavailable');
  t.equal(body.checks.contacts, 'unavailable');
  t.notMatch(JSON.stringify(body), /respond|timeout|error|nats|at /i, 'no internal error text');
  t.equal((await fetch(`${stack.baseUrl}/readyz`)).status, 200, 'a stack with its workers is ready');
});

t.test('the admin port listens on 127.0.0.1 unless ADMIN_HOST says otherwise', async (t) => {
  // The default in shared/config.ts is what the README says; the process logs where it listens.
  t.match(await byDefault.gateway.settledText(), /"admin_port":\d+,"host":"127\.0\.0\.1"/);
  t.ok(await answers('127.0.0.1', byDefault.adminPort), 'loopback reaches it');
  if (!external) {
    t.comment('no non-loopback IPv4 address on this machine: the outside view is not checked');
    return;
  }
  t.notOk(await answers(external, byDefault.adminPort), `${external} (this machine's other address) does not`);
  t.ok(await answers(external, everywhere.adminPort), 'with ADMIN_HOST=0.0.0.0 it does (the check can see a listener)');
});
