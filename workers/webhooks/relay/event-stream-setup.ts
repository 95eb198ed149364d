import { nanos, NatsError, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig, type StreamInfo } from 'nats';
import type { Config } from '../../../shared/config.js';
import { eventStreamName, eventStreamSubjects, STREAM_NOT_FOUND } from '../../../shared/events/event-stream.js';

/** Long enough for a relay that crashed mid-batch to come back and publish the batch again, stored once. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;

/** Creates the event stream, or brings an existing one to the configured retention. */
export async function ensureEventStream(jsm: JetStreamManager, namespace: string, settings: Config['events']): Promise<void> {
  const config: Partial<StreamConfig> & { name: string } = {
    name: eventStreamName(namespace),
    subjects: [eventStreamSubjects(namespace)],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_age: nanos(settings.streamMaxAgeMs),
    duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, settings.streamMaxAgeMs)),
    num_replicas: settings.streamReplicas,
  };
  const current = (await streamInfo(jsm, config.name))?.config;
  if (!current) await jsm.streams.add(config);
  else if (current.max_age !== config.max_age || current.num_replicas !== config.num_replicas || current.duplicate_window !== config.duplicate_window) {
    await jsm.streams.update(config.name, { ...current, ...config });
  }
}

/** A stream's description, or null when there is no such stream (any other failure throws). */
export async function streamInfo(jsm: JetStreamManager, name: string): Promise<StreamInfo | null> {
  try {
    return await jsm.streams.info(name);
  } catch (error) {
    if (error instanceof NatsError && error.jsError()?.err_code === STREAM_NOT_FOUND) return null;
    throw error;
  }
}
