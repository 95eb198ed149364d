import { setTimeout as sleep } from 'node:timers/promises';
import { DeliverPolicy, millis, NatsError, type Consumer, type JetStreamClient, type JetStreamManager } from 'nats';
import { natsConnectionOptions } from '../../shared/bus/nats-identity.js';
import { NatsTransport } from '../../shared/bus/nats-transport.js';
import type { Config } from '../../shared/config.js';
import type { Event } from '../../shared/contracts/events.js';
import { eventFilterSubjectOf, eventStreamName } from '../../shared/events/event-stream.js';
import { createLogger } from '../../shared/logger.js';
import { untilInterrupted } from './interruption.js';
import { RecentIds } from './recent-ids.js';
import { isStreamNotFound } from '../../shared/bus/jetstream-errors.js';
import { explainStreamProblem, isConsumerLost, isStreamGone, type StreamPlace } from './stream-problems.js';
import { printableNatsUrl } from '../../shared/bus/printable-nats-url.js';

export interface StreamTail {
  /** A well-formed workspace id: it becomes a subject token. */
  workspaceId: string;
  /** An event type, or a prefix ending in a dot. */
  type: string | undefined;
  since: Date;
  print(event: Event): void;
}

/** How often to look again for a stream that does not exist yet. */
const STREAM_RETRY_MS = 1_000;
/** How long to wait before reading on with a new consumer after NATS lost the last one (a restart). */
const CONSUMER_RETRY_MS = 250;
/** How often a following tail checks that its stream is still the one it started on (not deleted, or lost and made again). */
const STREAM_CHECK_MS = 2_000;
/** How many printed ids are remembered to drop a second copy of an event: far more than one relay batch (500). */
const REMEMBERED_IDS = 10_000;

/**
 * `crm events tail` with NATS_URL: an ordered consumer of the event stream, filtered by
 * subject to the workspace (and type); nothing is stored on the server. NATS alone is
 * needed: the subject carries the workspace id, so no database is opened.
 */
export async function tailStream(config: Config & { natsUrl: string }, tail: StreamTail): Promise<void> {
  // The address as messages show it: without a user and password written into the URL.
  const place: StreamPlace = { url: printableNatsUrl(config.natsUrl), namespace: config.busNamespace, stream: eventStreamName(config.busNamespace) };
  // Logs go to stderr so that stdout holds only the events.
  const log = createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, component: 'crm events', fd: 2 });
  let nats: NatsTransport | undefined;
  try {
    nats = await NatsTransport.connect(config.natsUrl, 'crm events tail', log, natsConnectionOptions(config, 'cli'));
    const signal = untilInterrupted();
    const since = tail.since.getTime();
    const printed = new RecentIds(REMEMBERED_IDS);
    // Where a consumer starts reading, in storage time: the since instant, then (after the stream
    // or the consumer was lost) the storage time of the last message read, whose copy, if any, is dropped as seen.
    let from = tail.since;
    while (!signal.aborted) {
      const consumer = await orderedConsumer(nats.jetStream(), place, tail, from, signal);
      if (!consumer) return;
      // Ends with an error when the stream is deleted or lost, instead of following the stream made
      // again (by the relay's next event) from the sequence number the lost one had reached, which
      // would skip that many new events without a word.
      const messages = await consumer.consume({ abort_on_missing_resource: true });
      const close = () => void messages.close();
      if (signal.aborted) close();
      else signal.addEventListener('abort', close);
      const stopWhenReplaced = watchStreamIdentity(await nats.jetStreamManager(), place, (gone) => messages.stop(gone));
      try {
        for await (const message of messages) {
          from = new Date(millis(message.info.timestampNanos));
          const event = message.json<Event>();
          // The consumer starts at the since instant in storage time, which is at or after creation: an event
          // relayed late (a backlog) is stored after since though created before it, and polling would not list it.
          if (Date.parse(event.created_at) >= since && printed.firstSight(event.id)) tail.print(event);
        }
        return;
      } catch (error) {
        // NATS restarted and kept the stream, not the consumer: read on with a new one from where it
        // stopped (what it reads again is dropped as seen).
        if (isConsumerLost(error)) {
          // Not at once: JetStream may still be recovering, and a loop of refusals would hammer it.
          await sleep(CONSUMER_RETRY_MS, undefined, { signal }).catch(() => undefined);
          continue;
        }
        if (!isStreamGone(error)) throw error;
        process.stderr.write(`crm: the event stream ${place.stream} on NATS at ${place.url} was deleted or lost; following it again once it is back.\n`);
      } finally {
        stopWhenReplaced();
        signal.removeEventListener('abort', close);
      }
    }
  } catch (error) {
    throw explainStreamProblem(error, place);
  } finally {
    // Nothing of its own to send: Ctrl-C during a NATS outage ends it at once.
    await nats?.closeNow();
  }
}

/**
 * The consumer, once the stream exists. A fresh deployment has no stream until the relay
 * publishes its first event, and someone tailing it wants to see that event, not an error:
 * so this waits, having said once on stderr what it waits for (a wrong BUS_NAMESPACE also
 * looks like this, which the line says). Undefined when interrupted while waiting.
 */
async function orderedConsumer(js: JetStreamClient, place: StreamPlace, tail: StreamTail, from: Date, signal: AbortSignal): Promise<Consumer | undefined> {
  let said = false;
  while (!signal.aborted) {
    try {
      return await js.consumers.get(place.stream, {
        // One subject as a string: the array form takes another consumer-creation path that this client version mishandles with a start time.
        filterSubjects: eventFilterSubjectOf(place.namespace, tail.workspaceId, tail.type),
        deliver_policy: DeliverPolicy.StartTime,
        opt_start_time: from.toISOString(),
      });
    } catch (error) {
      if (!isStreamNotFound(error)) throw error;
      if (!said) {
        process.stderr.write(
          `crm: waiting for the event stream ${place.stream} on NATS at ${place.url}: no event has been relayed yet, or BUS_NAMESPACE (${place.namespace}) is not the deployment's.\n`,
        );
        said = true;
      }
      // Rejects when interrupted: the loop then ends.
      await sleep(STREAM_RETRY_MS, undefined, { signal }).catch(() => undefined);
    }
  }
  return undefined;
}

/**
 * Calls `gone` (once) when the stream is no longer the one there now: deleted, or lost with a
 * server's storage and made again by the relay, whose sequence numbers start over. The client's
 * ordered consumer would go on from the number the old stream had reached, skipping as many
 * events of the new one. Returns the function that stops watching.
 */
function watchStreamIdentity(jsm: JetStreamManager, place: StreamPlace, gone: (error: NatsError) => void): () => void {
  let created: string | null | undefined;
  const check = async () => {
    // Unanswered (NATS away for a moment): the ordered consumer rides that out; looked at again next time.
    const now = await jsm.streams.info(place.stream).then(
      (info) => info.created,
      (error: unknown) => (isStreamNotFound(error) ? null : undefined),
    );
    if (now === undefined) return;
    created ??= now;
    if (now === null || now !== created) {
      clearInterval(timer);
      gone(new NatsError('stream not found', 'STREAM_REPLACED'));
    }
  };
  const timer = setInterval(() => void check(), STREAM_CHECK_MS);
  void check();
  return () => clearInterval(timer);
}
