import type { JetStreamAccess } from '../../../shared/bus/nats-transport.js';
import type { Config } from '../../../shared/config.js';
import type { Event } from '../../../shared/contracts/events.js';
import { eventSubjectOf, streamMessageOf } from '../../../shared/events/event-stream.js';
import type { Logger } from '../../../shared/logger.js';
import { createEventStreamIfMissing } from './event-stream-setup.js';

/** How long the stream may take to acknowledge a message before the batch is sent again. */
const PUBLISH_TIMEOUT_MS = 5_000;

/** Where the relay puts committed events; resolves once all of them are safely there. */
export interface EventSink {
  publish(events: Event[]): Promise<void>;
}

/**
 * The JetStream event stream. A batch is sent in order on one connection (so the stream
 * keeps each workspace's order) and counts once every message is acknowledged as stored;
 * the event id as message id makes a batch sent again after a failure land once.
 */
export function jetStreamSink(access: JetStreamAccess, namespace: string, settings: Config['events'], log: Logger): EventSink {
  let ready: Promise<void> | null = null;
  const setUp = async (): Promise<void> => {
    const outcome = await createEventStreamIfMissing(await access.jetStreamManager(), namespace, settings);
    if (outcome === 'differs') log.warn('the event stream keeps events otherwise than EVENTS_STREAM_MAX_AGE and EVENTS_STREAM_REPLICAS say: apply them with "crm events setup-stream"');
  };
  return {
    publish: async (events) => {
      ready ??= setUp();
      try {
        await ready;
        const maxBytes = access.maxMessageBytes();
        await Promise.all(
          events.map((event) => access.publishToStream(eventSubjectOf(namespace, event.workspace_id, event.type), streamMessageOf(event, maxBytes), event.id, PUBLISH_TIMEOUT_MS)),
        );
      } catch (error) {
        // The stream may have been deleted or the server replaced: set it up again next time.
        ready = null;
        throw error;
      }
    },
  };
}

/** Without NATS (`crm start` on its own): events go straight to the webhook deliveries of this process. */
export function inProcessSink(deliver: (events: Event[]) => Promise<void>): EventSink {
  return { publish: deliver };
}
