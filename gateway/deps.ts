import type { Registry } from 'prom-client';
import type { BusClient } from '../shared/bus/bus-client.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { GatewayRateLimits } from './rate-limit/rate-limit-middleware.js';

/** What routes and middlewares are built from. */
export interface GatewayDeps {
  bus: BusClient;
  config: Config;
  log: Logger;
  /** The public base URL (PUBLIC_URL, or the address the gateway listens on). */
  publicUrl: () => string;
  /** Where the gateway's metrics go (served on the admin port). */
  metrics: Registry;
  rateLimits: GatewayRateLimits;
}
