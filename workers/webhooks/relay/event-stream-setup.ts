import { nanos, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig, type StreamInfo } from 'nats';
import { isStreamNotFound } from '../../../shared/bus/jetstream-errors.js';
import type { Config } from '../../../shared/config.js';
import { eventStreamName, eventStreamSubjects } from '../../../shared/events/event-stream.js';

/** Long enough for a relay that crashed mid-batch to come back and publish the batch again, stored once. */
const DUPLICATE_WINDOW_MS = 10 * 60_000;

function streamConfigOf(namespace: string, settings: Config['events']): Partial<StreamConfig> & { name: string } {
  return {
    name: eventStreamName(namespace),
    subjects: [eventStreamSubjects(namespace)],
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    max_age: nanos(settings.streamMaxAgeMs),
    duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, settings.streamMaxAgeMs)),
    num_replicas: settings.streamReplicas,
  };
}

function differs(current: StreamConfig, wanted: Partial<StreamConfig>): boolean {
  return current.max_age !== wanted.max_age || current.num_replicas !== wanted.num_replicas || current.duplicate_window !== wanted.duplicate_window;
}

/**
 * The relay's setup: creates the event stream when it is missing (a new deployment, or NATS
 * lost its storage). An existing stream is never changed from here: the webhooks worker's
 * identity may not update it, since an update may also add subjects, and a stream taking
 * `<ns>.tokens.>` would store every sign-in password and answer the gateways' requests
 * itself. Resolves to whether the existing stream's retention differs from `settings`.
 */
export async function createEventStreamIfMissing(jsm: JetStreamManager, namespace: string, settings: Config['events']): Promise<'created' | 'as configured' | 'differs'> {
  const config = streamConfigOf(namespace, settings);
  const current = (await streamInfo(jsm, config.name))?.config;
  if (!current) {
    await jsm.streams.add(config);
    return 'created';
  }
  return differs(current, config) ? 'differs' : 'as configured';
}

/** The command line's setup (`crm events setup-stream`): creates the event stream, or brings an existing one to the configured retention. */
export async function ensureEventStream(jsm: JetStreamManager, namespace: string, settings: Config['events']): Promise<void> {
  const config = streamConfigOf(namespace, settings);
  const current = (await streamInfo(jsm, config.name))?.config;
  if (!current) await jsm.streams.add(config);
  else if (differs(current, config)) await jsm.streams.update(config.name, { ...current, ...config });
}

/** A stream's description, or null when there is no such stream (any other failure throws). */
export async function streamInfo(jsm: JetStreamManager, name: string): Promise<StreamInfo | null> {
  try {
    return await jsm.streams.info(name);
  } catch (error) {
    if (isStreamNotFound(error)) return null;
    throw error;
  }
}
