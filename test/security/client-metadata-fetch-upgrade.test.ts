import t from 'tap';
import { fetchMetadataDocument, MetadataFetchError } from '../../gateway/oauth/client-metadata/fetch-metadata-document.js';
import { switchingProtocolsServer } from '../helpers/switching-protocols-server.js';

/**
 * A client metadata document server answering 101 Switching Protocols, in process. Node
 * hands a 101 to 'upgrade' listeners only; without one it dropped the connection and the
 * request neither answered nor failed, past the deadline too: every authorization request
 * naming such a client_id (anyone may name any URL) held the gateway's promise and handler for ever.
 */
t.test('a document server answering 101 is refused at once, naming what it answered', async (t) => {
  const url = `${await switchingProtocolsServer(t)}/client.json`;
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
