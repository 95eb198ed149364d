import t from 'tap';
import { z } from 'zod';
import { encode } from '../../shared/bus/codec.js';
import { HEADER } from '../../shared/bus/headers.js';
import { InProcessTransport } from '../../shared/bus/in-process-transport.js';
import { defineOperation, subjectOf } from '../../shared/bus/operation.js';
import { decodeReply } from '../../shared/bus/reply.js';
import { loadConfig } from '../../shared/config.js';
import type { Orm } from '../../shared/db/orm.js';
import { createLogger } from '../../shared/logger.js';
import type { Secrets } from '../../shared/secrets.js';
import { Semaphore } from '../../workers/runtime/concurrency.js';
import { serveOperation } from '../../workers/runtime/serve-operation.js';
import { handle, type WorkerServices } from '../../workers/runtime/worker-call.js';

/**
 * A worker given bytes that are not JSON: refused as a malformed envelope, like any other,
 * and nothing of the bytes in its log. Before, JSON.parse's error (which quotes the text
 * around the fault) was logged as an unexpected error, a password included.
 */
const PASSWORD = 'hunter2-bus-secret';
const probe = defineOperation({ worker: 'tokens', resource: 'probes', verb: 'check', scoped: false, input: z.object({ password: z.string() }), output: z.object({ ok: z.boolean() }) });
const lines: string[] = [];
const log = createLogger({ level: 'info', component: 'test', destination: { write: (line: string) => lines.push(line) } });
const bus = new InProcessTransport();
const config = loadConfig({});
// No handler here reads the database or the secrets.
const services: WorkerServices = { orm: {} as Orm, secrets: {} as Secrets, bus, busNamespace: 'crm', broadcasts: bus, webhooks: config.webhooks, events: config.events };
let served = 0;
const subscription = serveOperation(
  handle(probe, async () => {
    served++;
    return { ok: true };
  }),
  services,
  log,
  new Semaphore(4),
);
t.teardown(() => subscription.drain());

async function send(data: Uint8Array, deadline = String(Date.now() + 5_000)) {
  const headers = { [HEADER.requestId]: 'req_malformed', [HEADER.deadline]: deadline };
  return decodeReply((await bus.request(subjectOf('crm', probe), data, { headers, timeoutMs: 5_000 })).data);
}

t.test('bytes that are not JSON are a malformed envelope, and nothing of them is logged', async (t) => {
  t.same(await send(encode({ context: null, input: { password: PASSWORD } })), { ok: true, result: { ok: true } }, 'a well-formed request is served');
  lines.length = 0;
  const reply = await send(new TextEncoder().encode(`{"context":null,"input":{"password":${PASSWORD}}}`));
  t.match(reply, { ok: false, error: { code: 'internal', message: 'Malformed request envelope on crm.tokens.probes.check' } });
  const logged = lines.join('');
  t.notMatch(logged, /hunter2/, 'no piece of the message in the log');
  t.notMatch(logged, /"msg":"unexpected error"/, 'refused, not failed on');
  t.match(logged, /"error_code":"internal"/, 'the refusal is logged, as every request is');
});

t.test('a deadline that is no number is refused, not read as no deadline at all', async (t) => {
  const before = served;
  const reply = await send(encode({ context: null, input: { password: PASSWORD } }), 'whenever');
  t.match(reply, { ok: false, error: { code: 'internal', message: 'Malformed request deadline on crm.tokens.probes.check' } });
  t.equal(served, before, 'the handler did not run');
});
