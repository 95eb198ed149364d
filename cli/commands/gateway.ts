import { loadConfig } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import { startGateway } from '../../gateway/start-gateway.js';
import { BusCallMetrics } from '../../shared/metrics/bus-call-metrics.js';
import { createMetricsRegistry } from '../../shared/metrics/registry.js';
import { serveAdminPort } from '../admin-port.js';
import { parseCommandArgs, withoutPositionals } from '../args.js';
import { busClient, connectTransport, requireNats } from '../environment.js';
import { onShutdown } from '../shutdown.js';

export const usage = `Usage: crm gateway

Runs the HTTP gateway alone. It needs NATS_URL (it forwards every call to workers
over NATS) and never opens Postgres. Run as many as you like behind a load balancer.`;

export async function run(argv: string[]): Promise<void> {
  withoutPositionals(parseCommandArgs(argv, {}, usage), usage);
  const config = loadConfig();
  requireNats(config, 'gateway');
  const log = createLogger({ level: config.logLevel, component: 'gateway' });
  const transport = await connectTransport(config, log, 'crm gateway', 'gateway');
  const metrics = createMetricsRegistry('gateway');
  const gateway = await startGateway(busClient(transport, config, { observer: new BusCallMetrics(metrics) }), config, log, metrics);
  const admin = await serveAdminPort(config, metrics, log, { transport });
  onShutdown(log, async () => {
    await gateway.close();
    await admin?.close();
    await transport.close();
  });
}
