import t from 'tap';
import { z } from 'zod';
import { BusClient } from '../../shared/bus/bus-client.js';
import { encode } from '../../shared/bus/codec.js';
import { InProcessTransport } from '../../shared/bus/in-process-transport.js';
import { defineOperation } from '../../shared/bus/operation.js';
import { BusTimeoutError, NoRespondersError } from '../../shared/bus/transport.js';
import { CrmError } from '../../shared/errors.js';

const echo = defineOperation({ worker: 'contacts', resource: 'echoes', verb: 'echo', scoped: false, input: z.object({ n: z.number() }), output: z.object({ n: z.number() }) });

t.test('no subscriber: NoResponders at once; a slow one: a timeout', async (t) => {
  const bus = new InProcessTransport();
  await t.rejects(bus.request('x', encode({}), { headers: {}, timeoutMs: 1000 }), NoRespondersError);
  bus.subscribe('slow', 'q', () => new Promise((r) => setTimeout(() => r(encode({})), 300)));
  await t.rejects(bus.request('slow', encode({}), { headers: {}, timeoutMs: 50 }), BusTimeoutError);
});

t.test('round-robin across a queue group, and drain waits for work in flight', async (t) => {
  const bus = new InProcessTransport();
  const served: string[] = [];
  const subs = ['a', 'b'].map((name) =>
    bus.subscribe('s', 'q', async (m) => {
      served.push(name);
      await new Promise((r) => setTimeout(r, 20));
      return m.data;
    }),
  );
  await Promise.all([1, 2, 3, 4].map(() => bus.request('s', encode({}), { headers: {}, timeoutMs: 1000 })));
  t.same(served.sort(), ['a', 'a', 'b', 'b']);
  const inFlight = bus.request('s', encode({ n: 1 }), { headers: {}, timeoutMs: 1000 });
  await Promise.all(subs.map((s) => s.drain()));
  t.ok(await inFlight, 'the request taken before the drain was answered');
  await t.rejects(bus.request('s', encode({}), { headers: {}, timeoutMs: 1000 }), NoRespondersError);
});

t.test('the typed client validates input and output and rebuilds errors', async (t) => {
  const transport = new InProcessTransport();
  transport.subscribe('crm.contacts.echoes.echo', 'q', async (m) => {
    const env = JSON.parse(new TextDecoder().decode(m.data)) as { input: { n: number } };
    if (env.input.n < 0) return encode({ ok: false, error: { code: 'not_found', message: 'No such thing.' } });
    if (env.input.n === 0) return encode({ ok: true, result: { n: 'zero' } });
    return encode({ ok: true, result: { n: env.input.n * 2 } });
  });
  const client = new BusClient(transport, 'crm', 1000);
  t.same((await client.call(echo, { n: 2 }, { context: null, requestId: 'req_1' })).result, { n: 4 });
  await t.rejects(client.call(echo, { n: -1 }, { context: null, requestId: 'req_1' }), new CrmError('not_found', 'No such thing.'));
  await t.rejects(client.call(echo, { n: 0 }, { context: null, requestId: 'req_1' }), { code: 'internal' }, 'a reply off contract is an internal error');
  await t.rejects(client.call(echo, { n: 'x' } as unknown as { n: number }, { context: null, requestId: 'req_1' }), { code: 'validation_failed' });
});
