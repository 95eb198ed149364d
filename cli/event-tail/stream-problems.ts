import { ErrorCode, NatsError } from 'nats';
import { ConfigError } from '../../shared/config.js';
import { isStreamNotFound } from '../../shared/bus/jetstream-errors.js';

/** Where `crm events tail` reads: named in every message, so the user sees which server and stream were meant. */
export interface StreamPlace {
  url: string;
  namespace: string;
  stream: string;
}

/** JetStream's error code for a consumer that does not exist. */
const CONSUMER_NOT_FOUND = 10014;

/**
 * The tail's consumer is gone, not its stream: NATS restarted, and an ordered consumer, which
 * the server keeps in memory only, did not outlive it. (A stream gone too is told apart when
 * the next consumer is made.)
 */
export function isConsumerLost(error: unknown): boolean {
  return error instanceof NatsError && (error.jsError()?.err_code === CONSUMER_NOT_FOUND || error.message === 'consumer not found');
}

/**
 * The stream went away under a following consumer: deleted (the server ends the consumer with
 * it: 409 "consumer deleted"), or not there when the consumer was made again after a
 * reconnection (a server back without its storage).
 */
export function isStreamGone(error: unknown): boolean {
  return isStreamNotFound(error) || (error instanceof NatsError && ((error.code === '409' && error.message === 'consumer deleted') || error.message === 'stream not found'));
}

/** The NATS error itself, also when it arrives as the cause of NatsTransport's "refused this process". */
function natsErrorOf(error: unknown): NatsError | undefined {
  if (error instanceof NatsError) return error;
  return error instanceof Error && error.cause instanceof NatsError ? error.cause : undefined;
}

/**
 * A NATS refusal as one line saying what is wrong and what to do (a ConfigError: the CLI
 * prints its message alone, exit code 1), instead of the client's stack trace. Anything
 * else comes back as it was.
 */
export function explainStreamProblem(error: unknown, place: StreamPlace): unknown {
  const nats = natsErrorOf(error);
  if (!nats) return error;
  if (nats.isAuthError()) {
    return new ConfigError(
      `NATS at ${place.url} refused the credentials (${nats.message}): set NATS_NKEY_SEED (or NATS_CREDS, or NATS_USER and NATS_PASSWORD) to the cli role's identity ("crm nats keys" makes one per role).`,
    );
  }
  if (nats.isPermissionError()) {
    const denied = nats.permissionContext ? ` (no ${nats.permissionContext.operation} on ${nats.permissionContext.subject})` : '';
    return new ConfigError(
      `NATS at ${place.url} does not let this identity read the event stream ${place.stream}${denied}: NATS_NKEY_SEED must be the cli role's seed, not another role's, and the server's authorization the one "crm nats config" prints for BUS_NAMESPACE ${place.namespace}.`,
    );
  }
  if (nats.code === ErrorCode.JetStreamNotEnabled) {
    // No responder to a JetStream API request: the server (or this account) runs without JetStream.
    return new ConfigError(`NATS at ${place.url} has no JetStream, so there is no event stream ${place.stream} to read: the deployment's NATS runs with JetStream (nats-server -js); is NATS_URL its address?`);
  }
  return error;
}
