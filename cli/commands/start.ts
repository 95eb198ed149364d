import { createLogger } from '../../shared/logger.js';
import { loadConfig } from '../../shared/config.js';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { openDatabase } from '../../shared/db/orm.js';
import { deriveSecrets } from '../../shared/secrets.js';
import { startGateway } from '../../gateway/start-gateway.js';
import { WORKERS } from '../../workers/index.js';
import { startWorkers } from '../../workers/runtime/start-workers.js';
import { workerServices } from '../../workers/runtime/worker-services.js';
import { BusCallMetrics } from '../../shared/metrics/bus-call-metrics.js';
import { registerPoolMetrics } from '../../shared/metrics/pool-metrics.js';
import { createMetricsRegistry } from '../../shared/metrics/registry.js';
import { serveAdminPort } from '../admin-port.js';
import { parseCommandArgs, withoutPositionals } from '../args.js';
import { busClient, connectTransport, resolveDatabase, resolveSecret } from '../environment.js';
import { printLines } from '../output.js';
import { onShutdown } from '../shutdown.js';
import { crmInvocation } from '../crm-invocation.js';

export const usage = `Usage: crm start

Runs the gateway and every worker in one process. Without DATABASE_URL and NATS_URL
it uses the embedded default: a real Postgres under CRM_DATA_DIR (./.data) and an
in-process bus. Migrations are applied on start. Stop with Ctrl-C.`;

export async function run(argv: string[]): Promise<void> {
  withoutPositionals(parseCommandArgs(argv, {}, usage), usage);
  const config = loadConfig();
  const log = createLogger({ level: config.logLevel, component: 'crm' });

  const db = await resolveDatabase(config, log, 'server');
  const secrets = deriveSecrets(await resolveSecret(config));
  const orm = await openDatabase({ url: db.url, poolMax: config.dbPoolMax, statementTimeoutMs: config.dbStatementTimeoutMs, applicationName: 'crm start' });
  const applied = await migrateDatabase(orm, db.url, { log });
  if (applied.length > 0) log.info({ applied }, 'migrations applied');

  const transport = await connectTransport(config, log, 'crm start', 'gateway');
  const metrics = createMetricsRegistry('crm');
  registerPoolMetrics(metrics, orm);
  const workers = startWorkers(Object.values(WORKERS), workerServices(config, { orm, secrets, transport, metrics }), log, config.workerConcurrency);
  const gateway = await startGateway(busClient(transport, config, { observer: new BusCallMetrics(metrics) }), config, log, metrics);
  // The database only: this process's gateway answers /readyz for the bus and every worker.
  const admin = await serveAdminPort(config, metrics, log, { orm });

  onShutdown(log, async () => {
    await gateway.close();
    await admin?.close();
    await workers.drain();
    await transport.close();
    await orm.close();
    await db.release();
  });

  const how = db.embedded ? `embedded Postgres in ${config.dataDir}` : 'DATABASE_URL';
  printLines(
    '',
    `CRM service listening on ${gateway.url}  (database: ${how}; bus: ${transport.kind === 'nats' ? 'NATS' : 'in-process'})`,
    '',
    '  REST API     ' + `${gateway.url}/v1`,
    '  Health       ' + `${gateway.url}/healthz   ${gateway.url}/readyz`,
    '',
    'First time? In another terminal:',
    `  ${crmInvocation()} bootstrap --org "Acme" --workspace "Sales" --email you@example.com --password-stdin --default-country US`,
    `  ${crmInvocation()} tokens create --workspace "Sales" --scopes contacts:read,contacts:write --name "my script"`,
    `  curl -H "Authorization: Bearer sk_live_…" ${gateway.url}/v1/me`,
    '',
    'Stop with Ctrl-C.',
    '',
  );
}
