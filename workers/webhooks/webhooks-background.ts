import type { Logger } from '../../shared/logger.js';
import type { BackgroundTask, WorkerServices } from '../runtime/worker-call.js';
import { startWebhookDelivery } from './deliveries/delivery-background.js';
import { streamEventOf } from './deliveries/event-consumer.js';
import { EventRelay } from './relay/event-relay.js';
import { inProcessSink, jetStreamSink } from './relay/event-sinks.js';
import { RelayLease } from './relay/relay-lease.js';

/**
 * What the webhooks worker runs besides answering requests: the relay (committed events
 * to the JetStream stream, from the one copy holding the lease) and webhook delivery (from
 * the stream's durable consumer). Without NATS the relay hands events to delivery directly.
 */
export function startWebhooksBackground(services: WorkerServices, log: Logger): BackgroundTask {
  const delivery = startWebhookDelivery(services, log);
  // Not `component`: the process logger's own binding has that key, and a line holding one key twice is read differently by each log tool.
  const relayLog = log.child({ task: 'event relay' });
  const sink = services.jetStream
    ? jetStreamSink(services.jetStream, services.busNamespace, services.events, relayLog)
    : inProcessSink((events) => delivery.deliver(events.map(streamEventOf)));
  const databaseUrl = services.orm.config.get('clientUrl') ?? '';
  const relay = new EventRelay(services.orm, new RelayLease(databaseUrl, services.busNamespace, log), sink, relayLog);
  return {
    stop: async () => {
      await relay.stop();
      await delivery.stop();
    },
  };
}
