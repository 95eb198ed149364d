import type { Registry } from 'prom-client';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { startAdminServer, type AdminServer, type ReadinessCheck } from '../shared/metrics/admin-server.js';

/** Starts the admin server (/metrics, /healthz, /readyz) when ADMIN_PORT is set. */
export async function serveAdminPort(config: Config, registry: Registry, ready: ReadinessCheck, log: Logger): Promise<AdminServer | null> {
  if (config.adminPort === undefined) return null;
  return startAdminServer({ port: config.adminPort, host: config.adminHost, registry, ready, log });
}
