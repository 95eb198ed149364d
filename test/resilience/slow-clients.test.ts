import net from 'node:net';
import t from 'tap';
import { REQUEST_TIMEOUT_MS } from '../../gateway/start-gateway.js';
import { startStack } from '../helpers/stack.js';

/**
 * Slow clients (slowloris): a request whose headers or body trickle in is answered 408 once
 * REQUEST_TIMEOUT_MS has passed, within a few seconds of it. Before, a body sent a byte at a
 * time held its connection (and a body parser) for 66 s plus up to 30 s: the headers' longer
 * bound and Node's default check interval.
 */
const stack = await startStack();
t.teardown(() => stack.stop());
const { workspace } = await stack.bootstrap();
const token = await stack.token(workspace.id, ['contacts:write']);
const { hostname, port } = new URL(stack.baseUrl);

/** Sends `head`, then one byte of `drip` a second; resolves with the first line answered and when. */
function trickle(head: string, drip: string): Promise<{ statusLine: string; afterMs: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const started = Date.now();
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    const dripping = setInterval(() => socket.write(drip), 1000);
    const giveUp = setTimeout(() => socket.destroy(), REQUEST_TIMEOUT_MS + 60_000);
    socket.on('close', () => {
      clearInterval(dripping);
      clearTimeout(giveUp);
      resolve({ statusLine: answer.split('\r\n')[0] ?? '', afterMs: Date.now() - started });
    });
    socket.write(head);
  });
}

t.test('a request whose headers or body trickle in is answered 408 soon after the request timeout', async (t) => {
  const [body, headers] = await Promise.all([
    trickle(`POST /v1/contacts HTTP/1.1\r\nHost: ${stack.baseUrl.slice(7)}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`, ' '),
    trickle(`GET /v1/contacts HTTP/1.1\r\nHost: ${stack.baseUrl.slice(7)}\r\n`, 'X'),
  ]);
  for (const [name, result] of [['trickled body', body], ['trickled headers', headers]] as const) {
    t.equal(result.statusLine, 'HTTP/1.1 408 Request Timeout', `${name}: 408`);
    t.ok(result.afterMs >= REQUEST_TIMEOUT_MS - 1000 && result.afterMs <= REQUEST_TIMEOUT_MS + 6000, `${name}: cut after ${result.afterMs} ms`);
  }
  t.notMatch(await stack.allOutput(), /"level":50/, 'nothing logged as an error');
});
