import { WORKER_NAMES, type WorkerName } from '../../shared/bus/operation.js';
import { workerRole } from '../../shared/bus/nats-permissions.js';
import { loadConfig } from '../../shared/config.js';
import { openDatabase } from '../../shared/db/orm.js';
import { createLogger } from '../../shared/logger.js';
import { deriveSecrets } from '../../shared/secrets.js';
import { WORKERS } from '../../workers/index.js';
import { startWorkers } from '../../workers/runtime/start-workers.js';
import { workerServices } from '../../workers/runtime/worker-services.js';
import { registerPoolMetrics } from '../../shared/metrics/pool-metrics.js';
import { createMetricsRegistry } from '../../shared/metrics/registry.js';
import { serveAdminPort } from '../admin-port.js';
import { parseCommandArgs } from '../args.js';
import { requireDatabaseAccepts } from '../require-database-accepts.js';
import { connectTransport, requireNats, resolveDatabase, resolveSecret } from '../environment.js';
import { onShutdown } from '../shutdown.js';
import { UsageError } from '../usage-error.js';

export const usage = `Usage: crm worker <${WORKER_NAMES.join('|')}> [more names…]

Runs workers that take requests from NATS in a queue group: start more copies to
share the load. Needs NATS_URL; in production also DATABASE_URL and CRM_SECRET
(without them it serves the embedded database under CRM_DATA_DIR on this machine, the
one "crm start" uses). Several kinds share a
process only without per-kind NATS credentials (NATS_NKEY_SEED, NATS_CREDS). On SIGTERM a worker
stops taking messages, finishes the ones it holds, and closes its connections; it waits
for an unreachable NATS at most BUS_TIMEOUT_MS (at least 2 s) at each of its two drains.`;

export async function run(argv: string[]): Promise<void> {
  const { positionals } = parseCommandArgs(argv, {}, usage);
  if (positionals.length === 0) throw new UsageError('Name the worker to run.', usage);
  const unknown = positionals.filter((n) => !(WORKER_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new UsageError(`Unknown worker: ${unknown.join(', ')}.`, usage);
  const names = [...new Set(positionals)] as WorkerName[];

  const config = loadConfig();
  requireNats(config, 'worker');
  // An nkey seed or a .creds file is one worker kind's NATS identity (`crm nats config`), whose
  // permissions cover that kind's subjects only: the other kinds would never get a request.
  if (names.length > 1 && (config.nats.nkeySeed !== undefined || config.nats.creds !== undefined)) {
    throw new UsageError(`With NATS_NKEY_SEED or NATS_CREDS each worker kind runs in its own process, with its own kind's credentials: start ${names.map((n) => `"crm worker ${n}"`).join(', ')} separately.`, usage);
  }
  const log = createLogger({ level: config.logLevel, component: `worker:${names.join('+')}` });
  const secrets = deriveSecrets(await resolveSecret(config));
  const db = await resolveDatabase(config, log, 'command');
  const orm = await openDatabase({ url: db.url, poolMax: config.dbPoolMax, statementTimeoutMs: config.dbStatementTimeoutMs, applicationName: `crm worker ${names.join(' ')}` });
  await requireDatabaseAccepts(orm, log);
  const transport = await connectTransport(config, log, `crm worker ${names.join(' ')}`, workerRole(names[0] as WorkerName));
  const metrics = createMetricsRegistry(`worker:${names.join('+')}`);
  registerPoolMetrics(metrics, orm);
  const workers = startWorkers(
    names.map((n) => WORKERS[n]),
    workerServices(config, { orm, secrets, transport, metrics }),
    log,
    config.workerConcurrency,
  );
  const admin = await serveAdminPort(config, metrics, log, { transport, orm });
  onShutdown(log, async () => {
    await admin?.close();
    await workers.drain();
    await transport.close();
    await orm.close();
    await db.release();
  });
}
