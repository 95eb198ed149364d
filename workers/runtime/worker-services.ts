import type { Registry } from 'prom-client';
import { jetStreamOf } from '../../shared/bus/nats-transport.js';
import type { BusTransport } from '../../shared/bus/transport.js';
import type { Config } from '../../shared/config.js';
import type { Orm } from '../../shared/db/orm.js';
import { WorkerMessageMetrics } from '../../shared/metrics/worker-metrics.js';
import type { Secrets } from '../../shared/secrets.js';
import type { WorkerServices } from './worker-call.js';

/**
 * What a service process's workers are given, from its configuration: one place, so that
 * `crm worker` and `crm start` cannot drift apart when a setting is added.
 */
export function workerServices(config: Config, parts: { orm: Orm; secrets: Secrets; transport: BusTransport; metrics: Registry }): WorkerServices {
  const { orm, secrets, transport, metrics } = parts;
  return {
    orm,
    secrets,
    bus: transport,
    busNamespace: config.busNamespace,
    broadcasts: transport,
    metrics: new WorkerMessageMetrics(metrics),
    webhooks: config.webhooks,
    events: config.events,
    validateReplies: config.validateReplies,
    jetStream: jetStreamOf(transport),
    natsKvReplicas: config.natsKvReplicas,
  };
}
