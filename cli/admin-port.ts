import type { Registry } from 'prom-client';
import type { BusTransport } from '../shared/bus/transport.js';
import type { Config } from '../shared/config.js';
import type { Orm } from '../shared/db/orm.js';
import type { Logger } from '../shared/logger.js';
import { startAdminServer, type AdminServer } from '../shared/metrics/admin-server.js';
import { busCheck, type ReadinessChecks } from '../shared/metrics/readiness.js';

const DATABASE_CHECK_MS = 2_000;

/**
 * Starts the admin server (/metrics, /healthz, /readyz) when ADMIN_PORT is set. The
 * process is ready when what it was given answers: NATS (`transport`), Postgres (`orm`).
 */
export async function serveAdminPort(
  config: Config,
  registry: Registry,
  log: Logger,
  needs: { transport?: BusTransport; orm?: Orm },
): Promise<AdminServer | null> {
  if (config.adminPort === undefined) return null;
  const ready = async (): Promise<ReadinessChecks> => ({
    ...(needs.transport ? { bus: busCheck(needs.transport) } : {}),
    ...(needs.orm ? { database: await databaseCheck(needs.orm) } : {}),
  });
  return startAdminServer({ port: config.adminPort, host: config.adminHost, registry, ready, log });
}

/** `ok` when Postgres answers a trivial query within 2 s; otherwise what went wrong. */
async function databaseCheck(orm: Orm): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), DATABASE_CHECK_MS)));
  // A query rather than orm.checkConnection(): the pool connects lazily, and that check reports
  // "not established" until something else has connected it.
  const check = orm.em
    .getConnection()
    .execute('select 1')
    .then(
      () => 'ok',
      (error: unknown) => (error instanceof Error ? error.message : 'unreachable'),
    );
  const result = await Promise.race([check, timeout]);
  clearTimeout(timer);
  return result;
}
