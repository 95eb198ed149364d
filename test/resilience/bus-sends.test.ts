/**
 * The coalesced sends over a real NATS server: what happens to a request that fails (or
 * whose connection closes) between the call and its turn of the event loop, and to a
 * broadcast made after the transport closed. A second connection watches the subject, so
 * "never written" is what the server saw, not what our code says it did.
 */
import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import t from 'tap';
import { CoalescedSends } from '../../shared/bus/coalesced-sends.js';
import { NatsTransport } from '../../shared/bus/nats-transport.js';
import { ReplyInbox } from '../../shared/bus/nats-reply-inbox.js';
import { createLogger } from '../../shared/logger.js';
import { NATS_URL } from '../helpers/environment.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const data = new TextEncoder().encode('{}');

/** Counts what the server delivers on `subject`, and answers each request with its body. */
async function watch(subject: string): Promise<{ seen: () => Promise<number>; nc: NatsConnection }> {
  const nc = await connect({ servers: NATS_URL });
  let count = 0;
  nc.subscribe(subject, { callback: (_err, msg) => (count++, msg.reply ? msg.respond(msg.data) : undefined) });
  await nc.flush();
  return { nc, seen: async () => (await nc.flush(), count) };
}

t.test('a request failed before its turn is never written; one not failed is written and answered', async (t) => {
  const subject = `test.sends.${randomBytes(4).toString('hex')}`;
  const watcher = await watch(subject);
  const nc = await connect({ servers: NATS_URL });
  t.teardown(async () => {
    await nc.close();
    await watcher.nc.close();
  });
  const inbox = new ReplyInbox(nc, undefined, new CoalescedSends());

  const dropped = inbox.request(subject, 5_000, (replyTo) => nc.publish(subject, data, { reply: replyTo }));
  // As when the connection drops: every request in flight fails, this one before its turn came.
  inbox.failAll(() => new Error('connection lost'));
  await t.rejects(dropped, { message: 'connection lost' });
  await nextTurn();
  await nc.flush();
  t.equal(await watcher.seen(), 0, 'the server never saw the failed request');

  const reply = await inbox.request(subject, 5_000, (replyTo) => nc.publish(subject, data, { reply: replyTo }));
  t.same(new TextDecoder().decode(reply.data), '{}', 'the next request is written and answered');
  t.equal(await watcher.seen(), 1);
});

t.test('a request whose connection closed before its turn fails at once, not at its deadline', async (t) => {
  const subject = `test.sends.${randomBytes(4).toString('hex')}`;
  const watcher = await watch(subject);
  t.teardown(() => watcher.nc.close());
  const nc = await connect({ servers: NATS_URL });
  const inbox = new ReplyInbox(nc, undefined, new CoalescedSends());

  const started = performance.now();
  const request = inbox.request(subject, 10_000, (replyTo) => nc.publish(subject, data, { reply: replyTo }));
  const closed = nc.close();
  await t.rejects(request, { code: 'CONNECTION_CLOSED' }, 'the write refused by the closed connection is the request’s failure');
  t.ok(performance.now() - started < 2_000, 'well before the 10 s deadline');
  await closed;
  t.equal(await watcher.seen(), 0);
});

t.test('the transport: sends queued before close are written; a broadcast after close is dropped without an error', async (t) => {
  const subject = `test.sends.${randomBytes(4).toString('hex')}`;
  const watcher = await watch(subject);
  t.teardown(() => watcher.nc.close());
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', component: 'test', destination: { write: (line: string) => void lines.push(line) } });
  const transport = await NatsTransport.connect(NATS_URL, 'bus-sends test', log);

  transport.publish(subject, data);
  transport.publish(subject, data);
  // close() in the same turn: what was queued goes out before the connection drains.
  await transport.close();
  t.equal(await watcher.seen(), 2, 'both broadcasts queued before close arrived');

  t.doesNotThrow(() => transport.publish(subject, data));
  await nextTurn();
  t.equal(await watcher.seen(), 2, 'nothing after close');
  t.notOk(lines.some((l) => l.includes('broadcast not sent')), 'a send after close is not an error to log');
  await t.rejects(transport.request(subject, data, { headers: {}, timeoutMs: 1_000 }), { name: 'BusDisconnectedError' }, 'a request after close fails at once');
});

t.test('a broadcast its listener cannot read is dropped; the connection goes on serving', async (t) => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', component: 'test', destination: { write: (line: string) => lines.push(line) } });
  const transport = await NatsTransport.connect(NATS_URL, 'hostile broadcast test', log);
  const publisher = await connect({ servers: NATS_URL });
  t.teardown(async () => {
    await publisher.close();
    await transport.close();
  });
  const subject = `test.broadcasts.${randomBytes(4).toString('hex')}`;
  const seen: unknown[] = [];
  // As the gateway reads a revocation: a field of a JSON object.
  const listening = transport.listen(subject, (bytes) => seen.push((JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>).token_id));
  t.teardown(() => listening.drain());
  const echo = `test.echo.${randomBytes(4).toString('hex')}`;
  publisher.subscribe(echo, { callback: (_err, msg) => msg.respond(msg.data) });
  await publisher.flush();
  await new Promise((resolve) => setTimeout(resolve, 100));

  for (const body of ['not json', 'null', '{"token_id":"tok_after"}']) publisher.publish(subject, new TextEncoder().encode(body));
  await publisher.flush();
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.same(seen, ['tok_after'], 'the message after the bad ones still arrives (before: the first ended the reader)');
  const reply = await transport.request(echo, data, { headers: {}, timeoutMs: 2_000 });
  t.equal(new TextDecoder().decode(reply.data), '{}', 'and requests are still answered');
  t.match(lines.join(''), /"msg":"broadcast not handled"/, 'the dropped ones are logged');
});
