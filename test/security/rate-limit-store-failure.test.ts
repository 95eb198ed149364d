import t from 'tap';
import { CrmProcess } from '../helpers/process.js';
import { natsEnvOf } from '../helpers/nats-server.js';
import { startPrivateNats } from '../helpers/private-services.js';

/**
 * Gateways whose shared rate-limit store is unreachable: a NATS server of the test's own
 * without JetStream, so the bus answers and the key-value bucket cannot be opened. Sign-in
 * attempts are limited per IP before anything else runs (no worker is needed for that).
 */
const nats = await startPrivateNats({ jetStream: false });
t.teardown(() => nats.stop());

const PER_MINUTE = 3;

async function gatewayWith(policy: string | undefined): Promise<{ gateway: CrmProcess; base: string; admin: string }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    ...natsEnvOf(nats.plan, 'gateway'),
    PORT: '0',
    ADMIN_PORT: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: String(PER_MINUTE),
    ...(policy ? { RATE_LIMIT_STORE_FAILURE: policy } : {}),
  };
  const gateway = new CrmProcess(`gateway ${policy ?? 'default'}`, ['gateway'], env);
  t.teardown(() => gateway.stop());
  const [, port] = await gateway.waitFor(/"port":(\d+)/);
  const [, adminPort] = await gateway.waitFor(/"admin_port":(\d+)/);
  return { gateway, base: `http://127.0.0.1:${port}`, admin: `http://127.0.0.1:${adminPort}` };
}

/** The statuses of n sign-in posts from this client: 403 (no CSRF token) once past the limiter, 429 when it refuses. */
async function signInStatuses(base: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.test&password=guess' });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  return statuses;
}

const [byDefault, open, closed] = await Promise.all([gatewayWith(undefined), gatewayWith('open'), gatewayWith('closed')]);

t.test('by default (local) a gateway whose store is unreachable still limits, exports a metric and warns once', async (t) => {
  // Before, the limiter failed open: with the store gone, sign-in attempts were unlimited.
  const statuses = await signInStatuses(byDefault.base, PER_MINUTE + 3);
  t.same(statuses, [...Array<number>(PER_MINUTE).fill(403), 429, 429, 429], 'the limit holds, counted in this gateway');
  const metrics = await (await fetch(`${byDefault.admin}/metrics`)).text();
  t.match(metrics, new RegExp(`crm_rate_limit_store_unavailable_total\\{limiter="sign-in",policy="local",component="gateway"\\} ${PER_MINUTE + 3}`));
  const warnings = (await byDefault.gateway.settledText()).split('\n').filter((line) => line.includes('rate limit store unreachable'));
  t.equal(warnings.length, 1, 'one warning for all those requests');
  t.match(warnings[0], /counting this gateway's requests alone/);
});

t.test('RATE_LIMIT_STORE_FAILURE=open lets requests through; closed refuses them', async (t) => {
  t.same(await signInStatuses(open.base, PER_MINUTE + 2), Array<number>(PER_MINUTE + 2).fill(403), 'open: no limit (as before, now only when chosen)');
  t.match(await open.gateway.settledText(), /rate limit store unreachable; letting requests through/);
  const refused = await signInStatuses(closed.base, 2);
  t.same(refused, [429, 429], 'closed: refused while the store is unreachable');
  t.match(await closed.gateway.settledText(), /rate limit store unreachable; refusing requests/);
});
