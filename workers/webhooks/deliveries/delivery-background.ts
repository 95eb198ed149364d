import type { Logger } from '../../../shared/logger.js';
import type { BackgroundTask, WorkerServices } from '../../runtime/worker-call.js';
import { DELIVERIES_IN_FLIGHT } from './deliveries-in-flight.js';
import { DeliveryLoop, setRunningDeliveryLoop } from './delivery-loop.js';
import { consumeEvents, type EventConsumer, type StreamEvent } from './event-consumer.js';
import { fanOutEvents } from './fan-out-event.js';

const POLL_MS = 1_000;

/**
 * The webhooks worker's delivery: the event stream's consumer stores each event's
 * deliveries and hands them to the loop at once; the loop sends and retries them.
 */
export function startWebhookDelivery(services: WorkerServices, log: Logger): BackgroundTask & { deliver: (events: StreamEvent[]) => Promise<void> } {
  const loop = new DeliveryLoop({ orm: services.orm, secrets: services.secrets, settings: services.webhooks, log }, {
    concurrency: DELIVERIES_IN_FLIGHT,
    pollMs: POLL_MS,
    shares: { perWorkspace: services.webhooks.inFlightPerWorkspace, perEndpoint: services.webhooks.inFlightPerEndpoint },
  });
  setRunningDeliveryLoop(loop);
  loop.wake();
  /**
   * Events handed over (by the stream's consumer, or by the relay without NATS): their
   * deliveries are stored, leased to this copy, before this resolves (and the events are
   * acknowledged), then sent at once. A backlog waits where the events come from (the
   * stream, the outbox) rather than in this process; deliveries over their workspace's or
   * endpoint's share of the slots wait in Postgres, due, for a slot to free.
   */
  const deliver = async (events: StreamEvent[]): Promise<void> => {
    await loop.room();
    loop.send(await fanOutEvents(services.orm, events, loop.leaseMs));
  };
  let consumer: EventConsumer | null = null;
  if (services.jetStream) {
    consumer = consumeEvents(services.jetStream, services.busNamespace, deliver, log);
  } else {
    // Said at start because a log that claimed webhooks got no events here sent people looking for a fault.
    log.info('no JetStream (in-process bus): the relay hands committed events straight to webhook delivery');
  }
  return {
    deliver,
    stop: async () => {
      // The consumer may wait for room in the loop: stopping it first could wait out WEBHOOK_TIMEOUT.
      loop.stopSending();
      await consumer?.stop();
      await loop.stop();
      setRunningDeliveryLoop(null);
    },
  };
}
