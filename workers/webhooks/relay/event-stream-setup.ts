import { nanos, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from 'nats';
import type { Config } from '../../../shared/config.js';
import { eventStreamName, eventStreamSubjects } from '../../../shared/events/event-stream.js';

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
  try {
    const info = await jsm.streams.info(config.name);
    const current = info.config;
    if (current.max_age !== config.max_age || current.num_replicas !== config.num_replicas || current.duplicate_window !== config.duplicate_window) {
      await jsm.streams.update(config.name, { ...current, ...config });
    }
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    await jsm.streams.add(config);
  }
}

function isStreamNotFound(error: unknown): boolean {
  return error instanceof Error && /stream not found/i.test(error.message);
}
