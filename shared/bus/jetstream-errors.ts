import { NatsError } from 'nats';

/** JetStream's error code for a stream that does not exist. */
const STREAM_NOT_FOUND = 10059;

/** JetStream answered that the stream (a key-value bucket's, the event stream) does not exist. */
export function isStreamNotFound(error: unknown): boolean {
  return error instanceof NatsError && error.jsError()?.err_code === STREAM_NOT_FOUND;
}

/** A key-value bucket this service would not have made (it captures other subjects, copies a stream…): someone made it to read requests. */
export class ForeignKeyValueBucketError extends Error {
  readonly code = 'bucket_foreign';
}

/** A key-value bucket that nobody has created yet. */
export class KeyValueBucketMissingError extends Error {
  readonly code = 'bucket_missing';
  constructor(readonly bucket: string) {
    super(`the key-value bucket ${bucket} does not exist`);
  }
}
