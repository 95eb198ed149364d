import net, { type AddressInfo } from 'node:net';
import t from 'tap';
import { fetchMetadataDocument, MetadataFetchError } from '../../gateway/oauth/client-metadata/fetch-metadata-document.js';

/**
 * A client metadata document server answering 101 Switching Protocols, in process. Node
 * hands a 101 to 'upgrade' listeners only; without one it dropped the connection and the
 * request neither answered nor failed, past the deadline too: every authorization request
 * naming such a client_id (anyone may name any URL) held the gateway's promise and handler for ever.
 */
t.test('a document server answering 101 is refused at once, naming what it answered', async (t) => {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client.json`;
  const timeoutMs = 1_000;
  const started = performance.now();
  const outcome = await Promise.race([
    fetchMetadataDocument(url, { allowPrivateNetworks: true, timeoutMs }).then(
      () => 'fetched',
      (error: unknown) => error,
    ),
    new Promise<'never ended'>((resolve) => setTimeout(() => resolve('never ended'), timeoutMs * 5).unref()),
  ]);
  t.not(outcome, 'never ended', `the fetch ended within ${timeoutMs * 5} ms`);
  t.type(outcome, MetadataFetchError);
  t.match((outcome as Error).message, /HTTP 101/);
  t.ok(performance.now() - started < timeoutMs, 'at once, not at the deadline');
});
