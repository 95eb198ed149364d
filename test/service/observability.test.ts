import t from 'tap';
import { client } from '../helpers/http.js';
import type { CrmProcess } from '../helpers/process.js';
import { startStack, TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Logs and metrics as an operator sees them: one request id through the gateway's and
 * the worker's JSON logs, no secret in any log, and Prometheus metrics on each process's
 * admin port (never on the public one).
 */
const stack = await startStack({ env: { ADMIN_PORT: '0', BUS_TIMEOUT_MS: '1500' } });
t.teardown(() => stack.stop());
const ws = await stack.bootstrap();
const token = await stack.token(ws.workspace.id, ['contacts:read', 'contacts:write']);
const api = client(stack.baseUrl, token);
const namespace = stack.env.BUS_NAMESPACE ?? '';

async function adminUrl(proc: CrmProcess): Promise<string> {
  const [, port] = await proc.waitFor(/"admin_port":(\d+)/);
  return `http://127.0.0.1:${port}`;
}
const contactsWorker = stack.workers.find((w) => w.label === 'worker contacts');
if (!contactsWorker) throw new Error('no contacts worker');
const gatewayAdmin = await adminUrl(stack.gateway);
const workerAdmin = await adminUrl(contactsWorker);
const scrape = async (base: string) => (await fetch(`${base}/metrics`)).text();

/** The JSON log lines of a process. */
function logLines(proc: CrmProcess): Record<string, unknown>[] {
  return proc
    .text()
    .split('\n')
    // The last piece may be a line still being written.
    .slice(0, -1)
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

t.test('one request id in the gateway log and the worker log; no secret in any log', async (t) => {
  const res = await api.post<{ id: string }>('/v1/contacts', { first_name: 'Logged', phone: '+14155550111' });
  t.equal(res.status, 201);
  const requestId = res.headers.get('request-id') ?? '';
  t.match(requestId, /^req_/);
  // Service logs are written in batches (at least every 250 ms): wait for the lines, not a fixed time.
  await Promise.all([stack.gateway, contactsWorker].map((p) => p.waitFor(new RegExp(`"request_id":"${requestId}"[^\n]*\n`))));

  const gatewayLine = logLines(stack.gateway).find((l) => l.request_id === requestId && l.msg === 'request');
  t.match(gatewayLine, { component: 'gateway', method: 'POST', path: '/v1/contacts', status: 201, level: 'info' }, 'the gateway logged the request');
  const workerLine = logLines(contactsWorker).find((l) => l.request_id === requestId);
  t.match(workerLine, { component: 'worker:contacts', subject: `${namespace}.contacts.contacts.create`, msg: 'handled' }, 'the worker logged the same request id');

  const everything = await stack.allOutput();
  t.notOk(everything.includes(token), 'the API token appears in no log');
  t.notOk(everything.includes(TEST_PASSWORD), 'the password appears in no log');
});

t.test('gateway metrics: HTTP by route pattern, bus calls by subject and outcome, process memory', async (t) => {
  await api.get(`/v1/contacts/con_doesnotexist`);
  const text = await scrape(gatewayAdmin);
  t.match(text, /crm_http_requests_total\{[^}]*method="POST",route="\/v1\/contacts",status="201"[^}]*\} [1-9]/);
  t.match(text, /crm_http_requests_total\{[^}]*route="\/v1\/contacts\/:id",status="404"[^}]*\} [1-9]/, 'routes by pattern, not by id');
  t.notMatch(text, /con_doesnotexist/, 'no id becomes a label');
  t.match(text, /crm_http_request_duration_seconds_bucket\{[^}]*route="\/v1\/contacts"/);
  t.match(text, new RegExp(`crm_bus_requests_total\\{[^}]*subject="${namespace}\\.contacts\\.contacts\\.create",outcome="ok"[^}]*\\} [1-9]`));
  t.match(text, new RegExp(`crm_bus_requests_total\\{[^}]*subject="${namespace}\\.contacts\\.contacts\\.get",outcome="not_found"`));
  t.match(text, /crm_process_resident_memory_bytes\{component="gateway"\} \d+/);

  // Refused before routing (no token; a route that does not exist): the route it was for, or `unmatched`.
  t.equal((await fetch(`${stack.baseUrl}/v1/contacts/con_refused`)).status, 401);
  t.equal((await api.get('/v1/made-up/con_nothing')).status, 404);
  const afterRefusals = await scrape(gatewayAdmin);
  t.match(afterRefusals, /crm_http_requests_total\{[^}]*method="GET",route="\/v1\/contacts\/:id",status="401"[^}]*\} [1-9]/, 'a 401 is labelled with the route it was for');
  t.match(afterRefusals, /crm_http_requests_total\{[^}]*method="GET",route="unmatched",status="404"[^}]*\} [1-9]/, 'a path no route has stays unmatched');
  t.notMatch(afterRefusals, /made-up|con_refused/, 'no path becomes a label');

  const publicRes = await fetch(`${stack.baseUrl}/metrics`);
  t.equal(publicRes.status, 404, '/metrics is not on the public port');
  t.equal((await fetch(`${gatewayAdmin}/healthz`)).status, 200);
  t.equal((await fetch(`${gatewayAdmin}/readyz`)).status, 200);
});

t.test('worker metrics: messages by subject and outcome, pool usage; readiness checks the database', async (t) => {
  const text = await scrape(workerAdmin);
  t.match(text, new RegExp(`crm_worker_messages_total\\{[^}]*subject="${namespace}\\.contacts\\.contacts\\.create",outcome="ok"[^}]*\\} [1-9]`));
  t.match(text, /crm_worker_message_duration_seconds_count\{[^}]*component="worker:contacts"/);
  t.match(text, /crm_db_pool_connections\{[^}]*state="max"[^}]*\} 10/);
  t.match(text, /crm_db_pool_connections\{[^}]*state="waiting"[^}]*\} 0/);
  const ready = await fetch(`${workerAdmin}/readyz`);
  t.equal(ready.status, 200);
  t.match(await ready.json(), { status: 'ready', checks: { bus: 'ok', database: 'ok' } });
});

t.test('a worker that stops answering shows up as bus timeouts', async (t) => {
  const pid = contactsWorker.pid ?? 0;
  process.kill(pid, 'SIGSTOP');
  try {
    const res = await api.get('/v1/contacts?limit=1');
    t.equal(res.status, 503);
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  const text = await scrape(gatewayAdmin);
  t.match(text, new RegExp(`crm_bus_timeouts_total\\{[^}]*subject="${namespace}\\.contacts\\.contacts\\.list"[^}]*\\} [1-9]`));
  t.match(text, new RegExp(`crm_bus_requests_total\\{[^}]*subject="${namespace}\\.contacts\\.contacts\\.list",outcome="timeout"`));
});
