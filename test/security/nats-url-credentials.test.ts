import t from 'tap';
import { NatsTransport } from '../../shared/bus/nats-transport.js';
import { printableNatsUrl } from '../../shared/bus/printable-nats-url.js';
import { createLogger } from '../../shared/logger.js';
import { startPrivateNats } from '../helpers/private-services.js';

/**
 * NATS_URL may carry credentials (`nats://user:password@host`, as nats.js accepts them).
 * Before, the warning while NATS was not reachable logged the URL whole, and a refusal's
 * error (printed by `crm` on stderr) repeated it, password included.
 */
const PASSWORD = 'nats-pass-hunter2';

t.test('credentials in a server URL are replaced, host and port kept', async (t) => {
  t.equal(printableNatsUrl(`nats://crm:${PASSWORD}@nats-1:4222`), 'nats://[redacted]@nats-1:4222');
  t.equal(printableNatsUrl(`tls://s3cr3t-token@nats-1:4222, nats://crm:${PASSWORD}@nats-2:4222`), 'tls://[redacted]@nats-1:4222,nats://[redacted]@nats-2:4222');
  t.equal(printableNatsUrl(`crm:${PASSWORD}@nats-1:4222`), '[redacted]@nats-1:4222', 'without a scheme too');
  t.equal(printableNatsUrl('nats://127.0.0.1:4222,nats-2'), 'nats://127.0.0.1:4222,nats-2', 'a URL without credentials is unchanged');
});

t.test('a server that refuses the credentials: the error names the server, not the password', async (t) => {
  // This NATS takes nkeys only: a user and password in the URL are refused.
  const nats = await startPrivateNats();
  t.teardown(() => nats.stop());
  const lines: string[] = [];
  const log = createLogger({ level: 'info', component: 'test', destination: { write: (line: string) => lines.push(line) } });
  const url = nats.url.replace('://', `://crm:${PASSWORD}@`);
  const error = await NatsTransport.connect(url, 'credentials test', log).then(
    () => null,
    (e: unknown) => e,
  );
  t.type(error, Error, 'refused');
  t.match((error as Error).message, /refused this process/);
  t.match((error as Error).message, /\[redacted\]@127\.0\.0\.1/, 'the server is named');
  t.notMatch((error as Error).message, PASSWORD, 'the password is not in the message');
  t.notMatch(lines.join(''), PASSWORD, 'nor in the log');
});
