import http from 'node:http';
import type { Registry } from 'prom-client';
import { listen } from '../listen.js';
import type { Logger } from '../logger.js';
import { readinessOf, type ReadinessChecks } from './readiness.js';

/** Runs the process's readiness checks. */
export type ReadinessCheck = () => Promise<ReadinessChecks>;

export interface AdminServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The operator's port, apart from the public one so that /metrics is never exposed to
 * API clients: GET /metrics (Prometheus text), /healthz (the process is up) and /readyz.
 */
export async function startAdminServer(options: {
  port: number;
  host: string;
  registry: Registry;
  ready: ReadinessCheck;
  log: Logger;
}): Promise<AdminServer> {
  const { registry, ready, log } = options;
  const server = http.createServer((req, res) => {
    const reply = (status: number, type: string, body: string): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') return reply(405, 'application/json', '{"error":"method_not_allowed"}');
    if (path === '/healthz') return reply(200, 'application/json', '{"status":"ok"}');
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => reply(200, registry.contentType, text),
        (err: unknown) => {
          log.warn({ err }, 'metrics collection failed');
          reply(500, 'text/plain', 'metrics collection failed');
        },
      );
      return;
    }
    if (path === '/readyz') {
      ready().then(
        (checks) => {
          const { status, body } = readinessOf(checks);
          reply(status, 'application/json', JSON.stringify(body));
        },
        () => reply(503, 'application/json', '{"status":"not_ready"}'),
      );
      return;
    }
    reply(404, 'application/json', '{"error":"not_found"}');
  });
  const port = await listen(server, options.port, options.host);
  log.info({ admin_port: port, host: options.host }, 'admin server listening (/metrics, /healthz, /readyz)');
  return {
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
