import t from 'tap';
import { pinnedSocketOptions } from '../../shared/ssrf/pinned-socket-options.js';

/** The socket options of webhook deliveries and of client metadata document fetches. */

const resolved = { address: '203.0.113.7', family: 4 as const };

t.test('TLS names the host without the trailing dot of a fully qualified name', async (t) => {
  t.equal(pinnedSocketOptions({ host: 'hooks.example.com.', port: 443, resolved, secure: true }).servername, 'hooks.example.com');
  t.equal(pinnedSocketOptions({ host: 'hooks.example.com', port: 443, resolved, secure: true }).servername, 'hooks.example.com');
});

t.test('no server name for an IP address, nor without TLS', async (t) => {
  t.notOk('servername' in pinnedSocketOptions({ host: '203.0.113.7', port: 443, resolved, secure: true }));
  t.notOk('servername' in pinnedSocketOptions({ host: '2001:db8::1', port: 443, resolved, secure: true }));
  t.notOk('servername' in pinnedSocketOptions({ host: 'hooks.example.com', port: 80, resolved, secure: false }));
});

t.test('the connection goes to the checked address, whatever the name resolves to now', async (t) => {
  const { lookup, host, port } = pinnedSocketOptions({ host: 'hooks.example.com', port: 8443, resolved, secure: true });
  t.equal(host, 'hooks.example.com');
  t.equal(port, 8443);
  const answer = await new Promise<unknown[]>((resolve) => lookup?.('hooks.example.com', {}, (...args: unknown[]) => resolve(args)));
  t.same(answer, [null, '203.0.113.7', 4]);
});
