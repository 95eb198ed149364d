import t from 'tap';
import { z } from 'zod';
import { BusClient } from '../../shared/bus/bus-client.js';
import { encode } from '../../shared/bus/codec.js';
import { InProcessTransport } from '../../shared/bus/in-process-transport.js';
import { defineOperation } from '../../shared/bus/operation.js';
import { decodeReply, encodeErrorReply, encodeReply, splitReply } from '../../shared/bus/reply.js';
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

t.test('the typed client checks replies against their contract (VALIDATE_REPLIES) and rebuilds errors', async (t) => {
  const transport = new InProcessTransport();
  const received: unknown[] = [];
  transport.subscribe('crm.contacts.echoes.echo', 'q', async (m) => {
    const env = JSON.parse(new TextDecoder().decode(m.data)) as { input: { n: number } };
    received.push(env.input);
    if (typeof env.input.n !== 'number') return encodeErrorReply({ code: 'validation_failed', message: 'n must be a number.', param: 'n' });
    if (env.input.n < 0) return encodeErrorReply({ code: 'not_found', message: 'No such thing.' });
    if (env.input.n === 0) return encodeReply(echo, { n: 'zero' });
    return encodeReply(echo, { n: env.input.n * 2 });
  });
  const client = new BusClient(transport, 'crm', 1000, { validateReplies: true });
  t.same((await client.call(echo, { n: 2 }, { context: null, requestId: 'req_1' })).result, { n: 4 });
  await t.rejects(client.call(echo, { n: -1 }, { context: null, requestId: 'req_1' }), new CrmError('not_found', 'No such thing.'));
  await t.rejects(client.call(echo, { n: 0 }, { context: null, requestId: 'req_1' }), { code: 'internal' }, 'a reply off contract is an internal error');
  // Input is validated where it enters (call: before anything is sent) and where it is trusted (the worker).
  const sent = received.length;
  await t.rejects(client.call(echo, { n: 'x' } as unknown as { n: number }, { context: null, requestId: 'req_1' }), { code: 'validation_failed', message: /^n: / });
  t.equal(received.length, sent, 'call refused it before sending');
  await t.rejects(client.callRaw(echo, { n: 'x' } as unknown as { n: number }, { context: null, requestId: 'req_1' }), { code: 'validation_failed', message: 'n must be a number.' });
  t.same(received.at(-1), { n: 'x' }, 'callRaw (for input its caller validated) carries it; the worker refused it');

  const trusting = new BusClient(transport, 'crm', 1000);
  t.same((await trusting.call(echo, { n: 0 }, { context: null, requestId: 'req_1' })).result, { n: 'zero' }, 'without VALIDATE_REPLIES a gateway trusts its workers');
});

t.test('a page travels as its rows and its position; a reply that is not one is refused', async (t) => {
  const list = defineOperation({
    worker: 'contacts',
    resource: 'echoes',
    verb: 'list',
    scoped: false,
    input: z.object({}),
    output: z.object({ data: z.array(z.object({ id: z.string() })), limit: z.number(), has_more: z.boolean(), next_cursor: z.string().nullable() }),
  });
  const page = { data: [{ id: 'a' }, { id: 'b' }], limit: 2, has_more: true, next_cursor: 'c2' };
  const wire = encodeReply(list, page);
  const reply = splitReply(wire);
  t.same(reply?.head, { ok: true, page: { limit: 2, has_more: true, next_cursor: 'c2' } }, 'the position in the head');
  t.equal(reply?.body.toString(), '[{"id":"a"},{"id":"b"}]', 'the rows as the body');
  t.same(decodeReply(wire), { ok: true, result: page }, 'and whole again');
  for (const bad of ['', '{"ok":true}', 'not json\n{}', '{"ok":"yes"}\n{}']) t.equal(splitReply(Buffer.from(bad)), undefined, `not a reply: ${JSON.stringify(bad)}`);
});
