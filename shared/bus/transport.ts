/**
 * The byte-level request/reply transport under the typed bus. Two implementations:
 * NATS (production, tests) and in-process (the embedded default only). Both carry
 * the same bytes and the same headers, so everything above this line is shared.
 */
export type BusHeaders = Record<string, string>;

export interface BusMessage {
  subject: string;
  data: Uint8Array;
  headers: BusHeaders;
}

/** Answers one request; the returned bytes are the reply. */
export type BusHandler = (message: BusMessage) => Promise<Uint8Array>;

export interface BusSubscription {
  /** Stops taking new messages; resolves when the transport holds none for this subscription. */
  drain(): Promise<void>;
}

/** Room to leave in a message for what NATS sends around the payload (protocol line, subject, headers). */
export const MESSAGE_ENVELOPE_BYTES = 4 * 1024;

export interface BusTransport {
  readonly kind: 'nats' | 'in-process';
  request(subject: string, data: Uint8Array, options: { headers: BusHeaders; timeoutMs: number }): Promise<BusMessage>;
  /** Subscribes in a queue group: each request goes to one member of the group. */
  subscribe(subject: string, queue: string, handler: BusHandler): BusSubscription;
  /** Fire-and-forget broadcast to every subscriber (no queue group), e.g. cache invalidation. */
  publish(subject: string, data: Uint8Array): void;
  listen(subject: string, handler: (data: Uint8Array) => void): BusSubscription;
  isConnected(): boolean;
  /** The largest message it carries, in bytes (NATS: the server's max_payload; in-process: no limit). */
  maxMessageBytes(): number;
  /** Drains subscriptions and flushes pending replies, then closes. */
  close(): Promise<void>;
}

/** Nobody is subscribed to the subject: no worker of that kind is running. */
export class NoRespondersError extends Error {
  override name = 'NoRespondersError';
  constructor(readonly subject: string) {
    super(`No worker is listening on ${subject}`);
  }
}

/** A worker took the request but did not answer before the deadline. */
export class BusTimeoutError extends Error {
  override name = 'BusTimeoutError';
  constructor(readonly subject: string, readonly timeoutMs: number) {
    super(`No reply on ${subject} within ${timeoutMs} ms`);
  }
}

/** The connection to the bus is down. */
export class BusDisconnectedError extends Error {
  override name = 'BusDisconnectedError';
  constructor(readonly subject: string, cause?: unknown) {
    super(`The bus is not connected (request on ${subject})`, { cause });
  }
}
