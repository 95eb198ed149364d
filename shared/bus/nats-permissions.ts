import { BUS_EVENTS } from '../contracts/broadcasts.js';
import { eventStreamName, eventStreamSubjects, webhookConsumerName } from '../events/event-stream.js';
import { rateLimitBucketOf } from '../rate-limit/rate-limit-bucket.js';
import { eventSubjectOf } from './bus-event.js';
import { queueOf, WORKER_NAMES, type WorkerName } from './operation.js';

/**
 * Who may do what on NATS, derived from the workers and broadcasts the code declares, so
 * the server's authorization configuration (`crm nats config`) cannot drift from it.
 *
 * - A gateway publishes requests to worker subjects and reads only its own reply inboxes,
 *   the broadcasts it caches by, and its rate-limit bucket. It cannot subscribe to a
 *   worker subject, so it can neither read requests (passwords, codes) nor answer them.
 *   It may not create streams: NATS cannot limit what a create request configures, and a
 *   bucket made by a gateway's key could capture the tokens worker's subjects. A gateway
 *   that finds no bucket asks a webhooks worker to make it, and refuses a foreign one
 *   (./key-value-stream.ts).
 * - A worker of kind K subscribes to `<ns>.K.>` only in K's queue group, and publishes
 *   only replies to the requests it received (and, for tokens, the broadcasts).
 * - The `crm` command line (the operator) publishes requests and broadcasts and reads its
 *   own inboxes and the event stream. Its operator calls are also signed (shared/bus/operator-signature.ts).
 * - The webhooks worker also relays events into the stream (creating it when missing) and
 *   reads it through its durable consumer; only the command line changes the stream. It also
 *   creates the rate-limit bucket when a gateway asks: no other worker may create streams.
 */
export const NATS_ROLES = ['gateway', 'cli', ...WORKER_NAMES.map((w) => `worker-${w}` as const)] as const;
export type NatsRole = (typeof NATS_ROLES)[number];

export interface NatsPermissions {
  /** Absent: nothing but responses (with `allowResponses`). */
  publish?: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[] };
  /** Replies to the requests this role received, and nothing else by reply. */
  allowResponses: boolean;
}

/** The role of a worker process serving one kind. */
export function workerRole(worker: WorkerName): NatsRole {
  return `worker-${worker}`;
}

/** Where a role's replies arrive: requests made with other inboxes get no answer it can read. */
export function inboxPrefixOf(namespace: string, role: NatsRole): string {
  return `_INBOX.${namespace}.${role}`;
}

/** The roles that send requests to workers: their publish permissions hold the worker subjects. */
const REQUESTER_ROLES = ['gateway', 'cli'] as const satisfies readonly NatsRole[];

/**
 * The reply subjects a worker answers to: the inboxes of the roles that send requests.
 * NATS lets a worker publish its answer to whatever reply subject a request names
 * (`allow_responses`), so without this check a requester could aim a worker's answer at a
 * subject it may not publish to itself: an event subject (stored in the event stream) or a
 * broadcast (a revocation heard by every gateway).
 */
export function requesterInboxesOf(namespace: string): string[] {
  return REQUESTER_ROLES.map((role) => `${inboxPrefixOf(namespace, role)}.`);
}

/**
 * Subjects of using a JetStream key-value bucket: stream info, reads, writes. JetStream
 * answers to whatever reply subject a request names, and a direct get answers with the
 * stored value itself: a gateway wrote a value, then asked for it with an event subject
 * (or a broadcast) as the reply subject, and JetStream published the forged event for it.
 * Reads go through the stream API instead, whose answers are JetStream's own JSON.
 */
function keyValueSubjects(bucket: string): string[] {
  const stream = `KV_${bucket}`;
  return ['$JS.API.INFO', `$JS.API.STREAM.INFO.${stream}`, `$JS.API.STREAM.MSG.GET.${stream}`, `$KV.${bucket}.>`];
}

/** Creating a key-value bucket (its stream) when it is missing, and looking it up. */
function keyValueCreatorSubjects(bucket: string): string[] {
  const stream = `KV_${bucket}`;
  return ['$JS.API.INFO', `$JS.API.STREAM.INFO.${stream}`, `$JS.API.STREAM.CREATE.${stream}`];
}

/**
 * Subjects of reading one durable pull consumer: look it up, create it (the same
 * configuration from every copy), fetch messages into the role's inbox, acknowledge them.
 */
function pullConsumerSubjects(stream: string, consumer: string): string[] {
  return [
    '$JS.API.INFO',
    `$JS.API.STREAM.INFO.${stream}`,
    `$JS.API.CONSUMER.INFO.${stream}.${consumer}`,
    `$JS.API.CONSUMER.CREATE.${stream}.${consumer}`,
    `$JS.API.CONSUMER.CREATE.${stream}.${consumer}.>`,
    `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.${consumer}`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.${consumer}`,
    `$JS.ACK.${stream}.${consumer}.>`,
  ];
}

/** Reading a stream through ordered (ephemeral) consumers: create, fetch into the role's inbox, delete. */
function streamReaderSubjects(stream: string): string[] {
  return [
    '$JS.API.INFO',
    `$JS.API.STREAM.INFO.${stream}`,
    // An ordered consumer is created without a name on older servers' API, with one on newer.
    `$JS.API.CONSUMER.CREATE.${stream}`,
    `$JS.API.CONSUMER.CREATE.${stream}.>`,
    `$JS.API.CONSUMER.INFO.${stream}.>`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.>`,
    `$JS.API.CONSUMER.DELETE.${stream}.>`,
  ];
}

/**
 * Publishing events: creating the stream when it is missing, and its subjects. Never an
 * update: one may add subjects (`<ns>.tokens.>`), and the stream would then store every
 * request there, passwords included, and answer them before the worker does.
 */
function relaySubjects(namespace: string): string[] {
  return [`$JS.API.STREAM.CREATE.${eventStreamName(namespace)}`, eventStreamSubjects(namespace)];
}

export function natsPermissionsOf(namespace: string, role: NatsRole): NatsPermissions {
  const requests = WORKER_NAMES.map((w) => `${namespace}.${w}.>`);
  const broadcasts = BUS_EVENTS.map((e) => eventSubjectOf(namespace, e));
  switch (role) {
    case 'gateway':
      return {
        // Broadcasts share the tokens worker's prefix: only workers and the CLI send them.
        publish: { allow: [...requests, ...keyValueSubjects(rateLimitBucketOf(namespace))], deny: broadcasts },
        subscribe: { allow: [`${inboxPrefixOf(namespace, role)}.>`, ...broadcasts] },
        allowResponses: false,
      };
    case 'cli': {
      // Its in-process workers announce what they change (e.g. a revocation), as a worker would;
      // `crm events tail` reads the event stream through ordered consumers of its own;
      // `crm events setup-stream` creates it or changes its retention.
      const stream = eventStreamName(namespace);
      return {
        publish: { allow: [...requests, ...streamReaderSubjects(stream), `$JS.API.STREAM.CREATE.${stream}`, `$JS.API.STREAM.UPDATE.${stream}`] },
        subscribe: { allow: [`${inboxPrefixOf(namespace, role)}.>`] },
        allowResponses: false,
      };
    }
    default: {
      const worker = role.slice('worker-'.length) as WorkerName;
      const announces = BUS_EVENTS.filter((e) => e.worker === worker).map((e) => eventSubjectOf(namespace, e));
      // The webhooks worker relays events into the stream, reads it through its durable consumer, and
      // creates the rate-limit bucket for the gateways. JetStream's answers arrive in its inbox.
      const jetStream =
        worker === 'webhooks'
          ? [...relaySubjects(namespace), ...pullConsumerSubjects(eventStreamName(namespace), webhookConsumerName(namespace)), ...keyValueCreatorSubjects(rateLimitBucketOf(namespace))]
          : [];
      // Each subject once: the consumer's and the bucket's lists share JetStream's info subject.
      const publishes = [...new Set([...announces, ...jetStream])];
      return {
        ...(publishes.length > 0 ? { publish: { allow: publishes } } : {}),
        // "subject queue": only as a member of the kind's queue group, never as a listener beside it.
        subscribe: { allow: [`${namespace}.${worker}.> ${queueOf(namespace, worker)}`, ...(jetStream.length > 0 ? [`${inboxPrefixOf(namespace, role)}.>`] : [])] },
        allowResponses: true,
      };
    }
  }
}
