import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages, type JsMsg } from 'nats';
import type { JetStreamAccess } from '../../../shared/bus/nats-transport.js';
import { Event } from '../../../shared/contracts/events.js';
import { eventStreamName, eventStreamSubjects, webhookConsumerName } from '../../../shared/events/event-stream.js';
import type { Logger } from '../../../shared/logger.js';
import { streamInfo } from '../relay/event-stream-setup.js';

/** An event is acknowledged once its deliveries are stored; until then the stream redelivers it after this. */
const ACK_WAIT_MS = 30_000;
/** How long to wait for the stream (the relay creates it) before looking again. */
const STREAM_RETRY_MS = 1_000;
/** At most this many events handled at once. */
const BATCH = 64;
/** Batches taken but not yet handled, at most. */
const MAX_BATCHES_WAITING = 2;
/**
 * What nats.js's consume() fails with, under `abort_on_missing_resource`, when the consumer
 * or its stream is gone (deleted, or NATS lost its JetStream storage): the consumer is then
 * created again, on the stream the relay creates again.
 */
const GONE = new Set(['consumer deleted', 'consumer not found', 'stream not found', 'no responders']);

function isGone(err: unknown): boolean {
  return err instanceof Error && GONE.has(err.message.toLowerCase());
}

export interface EventConsumer {
  stop(): Promise<void>;
}

/**
 * An event as delivered: this release's {@link Event}, or one a newer release wrote (a type
 * or actor kind added since) that still says which event it is, whose and when. Sent as is.
 */
export type DeliverableEvent = Pick<Event, 'id' | 'workspace_id' | 'created_at'> & { type: string };

/**
 * An event as the stream hands it over: its workspace and type from the subject, and the
 * event itself parsed (and checked) only when asked: most workspaces have no webhook
 * endpoint, and their events need no parsing at all. Null when it does not parse, or
 * names another workspace or type than its subject.
 */
export interface StreamEvent {
  workspaceId: string;
  type: string;
  event(): DeliverableEvent | null;
}

/**
 * A body this release's Event schema refuses, but which names an event, its workspace and
 * type, and when it happened: one written by a newer release during a rollout (a type or an
 * actor kind this copy does not know). Delivered as it is rather than dropped from the
 * stream for every copy; its workspace and type must still be those of its subject.
 */
function newerReleaseEvent(body: unknown, workspaceId: string, type: string): DeliverableEvent | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const fields = body as Record<string, unknown>;
  const { id, created_at: createdAt } = fields;
  if (typeof id !== 'string' || !id.startsWith('evt_') || id.length > 64) return null;
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) return null;
  if (fields.workspace_id !== workspaceId || fields.type !== type) return null;
  return { ...fields, id, workspace_id: workspaceId, type, created_at: createdAt };
}

/** An event already in hand (no stream in between), as a {@link StreamEvent}. */
export function streamEventOf(event: Event): StreamEvent {
  return { workspaceId: event.workspace_id, type: event.type, event: () => event };
}

/**
 * Reads the event stream through the durable pull consumer the worker's copies share, so
 * each event is handled by one of them, at least once: `handle` stores its deliveries, then
 * the event is acknowledged; a failure asks for it again a second later. An event that does
 * not parse (when it had to be read) is dropped from the stream.
 */
export function consumeEvents(access: JetStreamAccess, namespace: string, handle: (events: StreamEvent[]) => Promise<void>, log: Logger): EventConsumer {
  const stream = eventStreamName(namespace);
  const durable = webhookConsumerName(namespace);
  let stopped = false;
  let messages: ConsumerMessages | null = null;

  const run = async (): Promise<void> => {
    const jsm = await access.jetStreamManager();
    let waiting = false;
    while (!stopped && !(await streamInfo(jsm, stream))) {
      if (!waiting) log.info({ stream }, 'waiting for the event stream');
      waiting = true;
      await new Promise((r) => setTimeout(r, STREAM_RETRY_MS));
    }
    if (stopped) return;
    // The same configuration from every copy: adding it again is a no-op.
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      // From the start of what the stream keeps: endpoints only receive events newer than themselves anyway.
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ACK_WAIT_MS),
      filter_subject: eventStreamSubjects(namespace),
    });
    const consumer = await access.jetStream().consumers.get(stream, durable);
    // By default nats.js goes on pulling from a consumer that is gone, silently and for
    // ever; failing instead lets the loop below create it again.
    messages = await consumer.consume({ max_messages: BATCH, abort_on_missing_resource: true });
    if (stopped) await messages.close(); // stop() came while consume() was starting
    log.info({ stream, consumer: durable }, 'consuming events for webhooks');
    // Events that arrived together are handled together (one lookup of endpoints and one
    // insert of deliveries per workspace and batch): what the iterator hands over before
    // the next turn of the event loop joins the batch; batches run one after another.
    let batch: JsMsg[] = [];
    let handling: Promise<void> = Promise.resolve();
    let batchesWaiting = 0;
    const flush = () => {
      const taken = batch;
      if (taken.length === 0) return;
      batch = [];
      batchesWaiting++;
      handling = handling.then(() => handleBatch(taken)).finally(() => batchesWaiting--);
    };
    try {
      for await (const message of messages) {
        batch.push(message);
        if (batch.length === 1) setImmediate(flush);
        else if (batch.length >= BATCH) flush();
        // Taken from the stream no faster than handled: an event that waits here past its
        // acknowledgement deadline would only come again.
        if (batchesWaiting >= MAX_BATCHES_WAITING) await handling;
      }
    } finally {
      // Also when the consumer is gone: what was taken is stored before starting again
      // (an event the new consumer hands over again adds no second delivery).
      flush();
      await handling;
    }
  };

  const subjectPrefix = `${namespace}.events.`;
  const handleBatch = async (batch: JsMsg[]): Promise<void> => {
    const refused = new Set<JsMsg>();
    const refuse = (message: JsMsg) => {
      // Retrying cannot make it valid.
      log.error({ subject: message.subject, seq: message.seq }, 'event in the stream does not parse; skipped');
      refused.add(message);
    };
    const events: StreamEvent[] = [];
    for (const message of batch) {
      const rest = message.subject.startsWith(subjectPrefix) ? message.subject.slice(subjectPrefix.length) : '';
      const dot = rest.indexOf('.');
      if (dot <= 0) {
        refuse(message);
        continue;
      }
      const workspaceId = rest.slice(0, dot);
      const type = rest.slice(dot + 1);
      let parsed: DeliverableEvent | null | undefined;
      events.push({
        workspaceId,
        type,
        event: () => {
          if (parsed !== undefined) return parsed;
          let body: unknown;
          try {
            body = message.json();
          } catch {
            body = undefined; // not JSON at all: refused below like any other body that does not parse
          }
          const result = Event.safeParse(body);
          // The subject says whose event it is; a body that says otherwise is not trusted.
          if (result.success) parsed = result.data.workspace_id === workspaceId && result.data.type === type ? result.data : null;
          else {
            parsed = newerReleaseEvent(body, workspaceId, type);
            if (parsed) log.info({ subject: message.subject, seq: message.seq, issues: result.error.issues.length }, 'event unknown to this release (written by a newer one?); delivered as it is');
          }
          if (!parsed) refuse(message);
          return parsed;
        },
      });
    }
    try {
      await handle(events);
      for (const message of batch) {
        if (refused.has(message)) message.term();
        else message.ack();
      }
    } catch (err) {
      log.warn({ err, events: events.length }, 'storing webhook deliveries failed; the events come again');
      for (const message of batch) {
        if (refused.has(message)) message.term();
        else message.nak(1_000);
      }
    }
  };

  const done = (async () => {
    while (!stopped) {
      try {
        await run();
      } catch (err) {
        if (stopped) break;
        if (isGone(err)) log.warn({ err, stream, consumer: durable }, 'the event stream or its webhook consumer is gone; creating the consumer again once the stream is back');
        else log.warn({ err }, 'event consumer stopped; starting again');
        await new Promise((r) => setTimeout(r, STREAM_RETRY_MS));
      }
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      await messages?.close();
      await done;
    },
  };
}
