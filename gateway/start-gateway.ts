import http from 'node:http';
import type { Registry } from 'prom-client';
import type { BusClient } from '../shared/bus/bus-client.js';
import type { Config } from '../shared/config.js';
import { listen } from '../shared/listen.js';
import type { Logger } from '../shared/logger.js';
import { createGatewayApp } from './app.js';
import { answerClientError } from './errors/client-error-handler.js';
import { gatewayRateLimits } from './rate-limit/gateway-rate-limits.js';
import { localBaseUrl } from '../shared/net/local-base-url.js';

/** Longest a client may take to send one whole request, headers and body (a 408 past it). */
export const REQUEST_TIMEOUT_MS = 30_000;
/** How often the server looks for requests past {@link REQUEST_TIMEOUT_MS}: the most a cut comes late. */
const TIMEOUT_CHECK_INTERVAL_MS = 2_000;

/** How often a closing gateway closes the connections whose last request has been answered. */
const IDLE_SWEEP_MS = 50;

/**
 * How long a closing gateway waits for its requests in flight. The longest path is three bus
 * calls in a row, each within BUS_TIMEOUT_MS (up to 60 s): authenticate, the write, and a read
 * that describes its result (a tool's create_deal names the deal's stage and contact). A grace
 * shorter than that cut writes a worker then applied, their clients left without the answer.
 * A heuristic, not a bound: a console page may make more calls, but writes none after its write.
 */
export function shutdownGraceMs(busTimeoutMs: number): number {
  return Math.max(10_000, 3 * busTimeoutMs + 1_000);
}

export interface RunningGateway {
  url: string;
  port: number;
  /** Stops accepting connections and waits for requests in flight (up to `graceMs`, by default {@link shutdownGraceMs}). */
  close(graceMs?: number): Promise<void>;
}

export async function startGateway(bus: BusClient, config: Config, log: Logger, metrics: Registry): Promise<RunningGateway> {
  let publicUrl = config.publicUrl ?? '';
  const rateLimits = gatewayRateLimits(bus, config, log, metrics);
  const gateway = createGatewayApp({ bus, config, log, publicUrl: () => publicUrl, metrics, rateLimits });
  // Node checks these bounds every connectionsCheckingInterval (30 s by default): a slow client
  // was cut up to that much past them.
  const server = http.createServer({ connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS }, gateway.app);
  server.keepAliveTimeout = 65_000;
  // Not above requestTimeout: with headers allowed 66 s, Node held a request whose body trickled
  // in until then, not the 30 s meant (88 s seen). Idle keep-alive connections are
  // keepAliveTimeout's alone (65 s, above the 60 s idle timeout of common load balancers).
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.on('clientError', answerClientError(log));
  // The requests not yet answered in full, so that a shutdown can close their connections after
  // them too, and say how many its grace period cut.
  const inFlight = new Set<http.ServerResponse>();
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });

  const port = await listen(server, config.port, config.host);
  publicUrl ||= localBaseUrl(config.host, port);
  log.info({ port, host: config.host, public_url: publicUrl }, 'gateway listening');

  return {
    url: publicUrl,
    port,
    close: async (graceMs = shutdownGraceMs(config.busTimeoutMs)) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections outlive server.close(): clients kept sending requests on them
      // until the grace period cut whatever was in flight. From now on every response closes
      // its connection, and a connection is closed as soon as its request in flight is answered.
      server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => res.setHeader('Connection', 'close'));
      // Requests already in flight too: answered `keep-alive`, their clients sent the next request
      // on a connection the sweep below was about to close.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      const timer = setTimeout(() => {
        // Their request lines never come (no answer finished): without this, nothing said they were cut.
        if (inFlight.size > 0) log.warn({ requests: inFlight.size, grace_ms: graceMs }, 'shutdown grace period ended: requests still in flight were cut');
        server.closeAllConnections();
      }, graceMs);
      await closed;
      clearInterval(sweep);
      clearTimeout(timer);
      await gateway.close();
    },
  };
}
