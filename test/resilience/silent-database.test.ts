import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { openDatabase } from '../../shared/db/orm.js';
import { ADMIN_DATABASE_URL } from '../helpers/environment.js';

/**
 * A Postgres that falls silent on the connections open (a failover, a host lost without a
 * reset) while new connections are answered. Before, a worker's pooled connections each
 * waited for TCP to give up (about 15 minutes on Linux): the worker answered 503 and its
 * /readyz said "timeout" all that time, though Postgres was there again.
 */
function silencingProxy(target: URL): Promise<{ port: number; silence(): void; close(): void }> {
  const pairs = new Set<{ client: net.Socket; server: net.Socket; silent: boolean }>();
  const proxy = net.createServer((client) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    const pair = { client, server, silent: false };
    pairs.add(pair);
    client.on('data', (data) => void (pair.silent || server.write(data)));
    server.on('data', (data) => void (pair.silent || client.write(data)));
    const end = () => {
      client.destroy();
      server.destroy();
      pairs.delete(pair);
    };
    for (const socket of [client, server]) socket.on('error', end).on('close', end);
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () =>
      resolve({
        port: (proxy.address() as AddressInfo).port,
        silence: () => pairs.forEach((pair) => (pair.silent = true)),
        close: () => {
          pairs.forEach((pair) => pair.client.destroy());
          proxy.close();
        },
      }),
    ),
  );
}

t.test('a connection whose server fell silent is given up past the statement timeout, and the next statement runs on a new one', async (t) => {
  const target = new URL(ADMIN_DATABASE_URL);
  const proxy = await silencingProxy(target);
  t.teardown(() => proxy.close());
  const url = new URL(ADMIN_DATABASE_URL);
  url.host = `127.0.0.1:${proxy.port}`;
  const orm = await openDatabase({ url: url.href, poolMax: 2, applicationName: 'crm silent-database test', statementTimeoutMs: 500 });
  t.teardown(() => orm.close(true).catch(() => undefined));
  const selectOne = () => orm.em.getConnection().execute('select 1 as one');

  t.same(await selectOne(), [{ one: 1 }], 'answered through the proxy');
  proxy.silence();
  const started = Date.now();
  const outcome = await Promise.race([selectOne().then(() => 'answered', () => 'failed'), sleep(15_000).then(() => 'still waiting')]);
  t.equal(outcome, 'failed', 'the statement on the silent connection fails instead of waiting for TCP');
  t.ok(Date.now() - started < 10_000, `within the statement timeout and its grace (${Date.now() - started} ms)`);
  t.same(await selectOne(), [{ one: 1 }], 'the next statement runs on a new connection');
});

t.test('a transaction that lifts the statement timeout, as a migration does, is not cut short', async (t) => {
  const orm = await openDatabase({ url: ADMIN_DATABASE_URL, poolMax: 1, applicationName: 'crm silent-database test', statementTimeoutMs: 500 });
  t.teardown(() => orm.close(true));
  const connection = orm.em.getConnection();
  const slept = await connection.transactional(async (trx) => {
    await connection.execute('set local statement_timeout = 0', [], 'run', trx);
    // Longer than the statement timeout and its grace (5 s) together.
    return connection.execute('select true as slept from pg_sleep(6)', [], 'all', trx);
  });
  t.same(slept, [{ slept: true }]);
  await t.rejects(connection.execute('select pg_sleep(1)'), /statement timeout/, 'after it, statements are bounded again');
});
