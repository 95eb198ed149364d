import type pg from 'pg';
import t from 'tap';
import { newId } from '../../shared/ids.js';
import { createLogger } from '../../shared/logger.js';
import { RelayLease } from '../../workers/webhooks/relay/relay-lease.js';
import { ADMIN_DATABASE_URL } from '../helpers/environment.js';

/**
 * The relay lease is a session lock: whichever copy's session Postgres still holds relays.
 * A session cut silently (a NAT dropping an idle flow) must not keep the lock for the
 * server's default keep-alive of hours, so the lease's session sets its own probes.
 */
// Any database will do: the lock's name is this test's own.
const databaseUrl = ADMIN_DATABASE_URL;
const log = createLogger({ level: 'silent', component: 'relay lease test' });

t.test('the lease session is probed by the server within half a minute, and one copy holds it at a time', async (t) => {
  const name = `test ${newId('request')}`;
  const first = new RelayLease(databaseUrl, name, log);
  const second = new RelayLease(databaseUrl, name, log);
  t.teardown(async () => {
    await first.release();
    await second.release();
  });
  t.equal(await first.tryAcquire(() => undefined), true);
  t.equal(await second.tryAcquire(() => undefined), false, 'held by the first');

  const session = (first as unknown as { client: pg.Client }).client;
  const setting = async (name: string) => (await session.query<Record<string, string>>(`show ${name}`)).rows[0]?.[name];
  t.equal(await setting('tcp_keepalives_idle'), '10');
  t.equal(await setting('tcp_keepalives_interval'), '5');
  t.equal(await setting('tcp_keepalives_count'), '3');

  await first.release();
  t.equal(await second.tryAcquire(() => undefined), true, 'free once the first session ends');
});
