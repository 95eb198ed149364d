import t from 'tap';
import { client } from '../helpers/http.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ workers: { contacts: 2 }, env: { BUS_TIMEOUT_MS: '1500' } });
t.teardown(() => stack.stop());

const ws = await stack.bootstrap({ defaultCountry: 'US' });
const token = await stack.token(ws.workspace.id, ['contacts:read', 'contacts:write']);
const api = client(stack.baseUrl, token);
const contactsWorkers = stack.workers.filter((w) => w.label === 'worker contacts');
let phone = 2000;
const nextPhone = () => `+1 646 555 ${String(phone++).padStart(4, '0')}`;

t.test('two copies of the contacts worker both serve requests', async (t) => {
  t.equal(contactsWorkers.length, 2);
  await Promise.all(Array.from({ length: 60 }, () => api.post('/v1/contacts', { first_name: 'Spread', phone: nextPhone() })));
  for (const worker of contactsWorkers) {
    const handled = (await worker.settledText()).match(/"subject":"[a-z0-9]+\.contacts\.contacts\.create"[^\n]*"msg":"handled"/g) ?? [];
    t.ok(handled.length > 5, `${worker.label} (pid ${worker.pid}) handled ${handled.length} creates`);
  }
});

t.test('stopping one worker mid-load loses no acknowledged write', async (t) => {
  const acknowledged: string[] = [];
  const failures: number[] = [];
  let running = true;
  const client8 = Array.from({ length: 8 }, async () => {
    while (running) {
      const res = await api.post<{ id: string }>('/v1/contacts', { first_name: 'Load', phone: nextPhone() });
      if (res.status === 201) acknowledged.push(res.body.id);
      else failures.push(res.status);
    }
  });
  await new Promise((r) => setTimeout(r, 1000));
  const [victim] = contactsWorkers;
  const ackBeforeStop = acknowledged.length;
  const code = await victim?.stop('SIGTERM');
  t.equal(code, 0, 'the worker drained and exited cleanly');
  await new Promise((r) => setTimeout(r, 1000));
  running = false;
  await Promise.all(client8);

  t.ok(ackBeforeStop > 0 && acknowledged.length > ackBeforeStop, `${acknowledged.length} writes acknowledged (${ackBeforeStop} before the stop)`);
  t.ok(failures.every((s) => s === 503), `failures, if any, are clean 503s: ${JSON.stringify(failures)}`);
  const stored = new Set(
    (await stack.db.query<{ id: string }>('select id from contacts where id = any($1)', [acknowledged])).map((r) => r.id),
  );
  t.equal(stored.size, acknowledged.length, 'every 201 is in the database');
  t.match((await victim?.settledText()) ?? '', /"msg":"stopped"/);
});

t.test('with no contacts worker, requests fail fast with 503 and Retry-After; a new worker restores service', async (t) => {
  for (const w of contactsWorkers) await w.stop('SIGTERM');
  const started = Date.now();
  const res = await api.post<{ error: { code: string; type: string } }>('/v1/contacts', { first_name: 'Nobody', phone: nextPhone() });
  t.equal(res.status, 503);
  t.equal(res.body.error.code, 'unavailable');
  t.equal(res.body.error.type, 'api_error');
  t.ok(res.headers.get('retry-after'), 'Retry-After is set');
  t.ok(Date.now() - started < 1000, 'no waiting for a timeout when nobody listens');
  const ready = await api.get<{ status: string; checks: Record<string, string> }>('/readyz');
  t.equal(ready.status, 503, '/readyz reports not ready');
  t.equal(ready.body.checks.contacts, 'unavailable', 'which part is down, and no internal error text on the public port');
  t.equal((await api.get('/healthz')).status, 200, '/healthz still says the process is up');

  await stack.startWorker('contacts');
  const back = await api.post('/v1/contacts', { first_name: 'Back', phone: nextPhone() });
  t.equal(back.status, 201);
});

t.test('a worker that stops answering: 503 at the deadline, and the late request is not applied', async (t) => {
  const worker = stack.workers.filter((w) => w.label === 'worker contacts' && w.running).at(-1);
  t.ok(worker?.pid, 'a running contacts worker');
  process.kill(worker?.pid ?? 0, 'SIGSTOP');
  const phoneOfLate = nextPhone();
  const started = Date.now();
  const res = await api.post<{ error: { code: string } }>('/v1/contacts', { first_name: 'Late', phone: phoneOfLate });
  const waited = Date.now() - started;
  process.kill(worker?.pid ?? 0, 'SIGCONT');
  t.equal(res.status, 503);
  t.equal(res.body.error.code, 'unavailable');
  t.ok(waited >= 1400 && waited < 3000, `answered at the deadline (${waited} ms)`);
  await new Promise((r) => setTimeout(r, 1000));
  const ok = await api.post('/v1/contacts', { first_name: 'After', phone: nextPhone() });
  t.equal(ok.status, 201, 'the worker serves again');
  const late = await stack.db.query('select id from contacts where phone = $1', [phoneOfLate.replace(/ /g, '')]);
  t.equal(late.length, 0, 'the request that expired in the queue was dropped, not applied behind the caller\'s back');
});
