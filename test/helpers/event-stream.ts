import { connect, nkeyAuthenticator, type NatsConnection } from 'nats';
import type { Event } from '../../shared/contracts/events.js';
import { eventStreamName, eventStreamSubjects, eventSubjectOf } from '../../shared/events/event-stream.js';
import type { NatsWatcher } from './stack.js';

/**
 * Publishes events into the stack's event stream as the relay does (JetStream, message id
 * the event id), creating the stream with the contract's name and subjects if absent.
 */
export interface EventStreamPublisher {
  publish(event: Event): Promise<void>;
  /** Any body on an event's subject: what a forged or broken message would look like. */
  publishRaw(workspaceId: string, type: Event['type'], body: string, messageId: string): Promise<void>;
  close(): Promise<void>;
}

export async function eventStreamPublisher(watcher: NatsWatcher, namespace: string): Promise<EventStreamPublisher> {
  const nc: NatsConnection = await connect({ servers: watcher.url, authenticator: nkeyAuthenticator(new TextEncoder().encode(watcher.seed)) });
  const jsm = await nc.jetstreamManager();
  const stream = eventStreamName(namespace);
  try {
    await jsm.streams.info(stream);
  } catch {
    await jsm.streams.add({ name: stream, subjects: [eventStreamSubjects(namespace)] });
  }
  const js = nc.jetstream();
  return {
    publish: async (event) => {
      await js.publish(eventSubjectOf(namespace, event.workspace_id, event.type), JSON.stringify(event), { msgID: event.id });
    },
    publishRaw: async (workspaceId, type, body, messageId) => {
      await js.publish(eventSubjectOf(namespace, workspaceId, type), body, { msgID: messageId });
    },
    close: () => nc.drain(),
  };
}
