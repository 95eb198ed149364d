import net, { type AddressInfo } from 'node:net';

/**
 * A server on 127.0.0.1 that answers every request with `101 Switching Protocols`, which
 * Node hands to 'upgrade' listeners only: for the outbound fetches that must not hang on it.
 * Returns its origin (`http://127.0.0.1:PORT`); closed at the test's teardown.
 */
export async function switchingProtocolsServer(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
