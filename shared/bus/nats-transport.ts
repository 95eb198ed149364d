import { connect, headers as natsHeaders, ErrorCode, type ConnectionOptions, type JetStreamClient, type JetStreamManager, type KV, type NatsConnection, type Msg, type MsgHdrs } from 'nats';
import type { Logger } from '../logger.js';
import { ConfigError } from '../config.js';
import { CoalescedSends } from './coalesced-sends.js';
import { DrainGrace } from './drain-grace.js';
import { ReplyInbox } from './nats-reply-inbox.js';
import { printableNatsUrl } from './printable-nats-url.js';
import { ForeignKeyValueBucketError, isStreamNotFound, KeyValueBucketMissingError } from './jetstream-errors.js';
import { keyValueStreamProblem } from './key-value-stream.js';
import { BusDisconnectedError, BusTimeoutError, NoRespondersError } from './transport.js';
import type { BusHandler, BusHeaders, BusMessage, BusSubscription, BusTransport } from './transport.js';

function toHeaders(h: MsgHdrs | undefined): BusHeaders {
  const out: BusHeaders = {};
  if (!h) return out;
  for (const key of h.keys()) out[key] = h.get(key);
  return out;
}

function fromHeaders(h: BusHeaders): MsgHdrs | undefined {
  const keys = Object.keys(h);
  if (keys.length === 0) return undefined;
  const out = natsHeaders();
  for (const key of keys) out.set(key, h[key] as string);
  return out;
}

/**
 * Errors of a server not (yet) there, or too busy to finish the handshake in time (TIMEOUT:
 * seen when many processes start at once on a small machine), as opposed to one that refuses us.
 */
const UNREACHABLE = new Set<string>([ErrorCode.ConnectionRefused, ErrorCode.ConnectionTimeout, ErrorCode.Timeout, 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * How long a stopping process waits for NATS to confirm its drain, unless told otherwise: the
 * default BUS_TIMEOUT_MS. No requester waits longer than its deadline for a reply, so a reply
 * still unsent by then is wanted by no one.
 */
const DEFAULT_DRAIN_GRACE_MS = 5_000;

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** JetStream on the process's NATS connection (the event stream: shared/events/event-stream.ts). */
export interface JetStreamAccess {
  jetStream(): JetStreamClient;
  jetStreamManager(): Promise<JetStreamManager>;
  /**
   * Stores one message in the stream that takes `subject` (message id `msgId`, so a message
   * sent again is stored once); resolves once the stream acknowledged it.
   */
  publishToStream(subject: string, data: Uint8Array | string, msgId: string, timeoutMs: number): Promise<void>;
  /** The largest message the server takes, in bytes. */
  maxMessageBytes(): number;
  /** Creates a key-value bucket as configured, or opens it when it exists; refuses one this service would not have made. */
  createKeyValue(bucket: string, options: { ttlMs: number; replicas: number }): Promise<KV>;
}

/** JetStream of the bus, when the bus is NATS (the in-process bus has none). */
export function jetStreamOf(transport: BusTransport): JetStreamAccess | undefined {
  return transport instanceof NatsTransport ? transport : undefined;
}

export class NatsTransport implements BusTransport, JetStreamAccess {
  readonly kind = 'nats' as const;
  private connected = true;
  /** Made at the first request: workers only answer, and may not subscribe to an inbox. */
  private replies?: ReplyInbox;
  /** Requests, replies and broadcasts, in the order they were made, written to the socket once per turn of the event loop. */
  private readonly sends = new CoalescedSends();
  private readonly drainGrace: DrainGrace;
  /** Said once: a shutdown that closed without NATS confirming its drain. */
  private drainCut = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly log: Logger,
    private readonly inboxPrefix: string | undefined,
    private readonly replyPrefixes: readonly string[] | undefined,
    drainGraceMs: number,
  ) {
    this.drainGrace = new DrainGrace(drainGraceMs);
    void this.watchStatus();
  }

  /**
   * `identity`: credentials, TLS and inbox (shared/bus/nats-identity.ts); none for an open
   * server. Waits for a server that is not up yet (processes may start before NATS), but
   * stops at once when a server refuses this process (credentials, TLS): retrying cannot help.
   * `replyPrefixes`: the only reply subjects a request served here is answered on
   * (shared/bus/nats-permissions.ts, requesterInboxesOf); others are refused unserved.
   * `drainGraceMs`: how long a shutdown waits for an unreachable NATS (./drain-grace.ts).
   */
  static async connect(
    url: string,
    name: string,
    log: Logger,
    identity: Partial<ConnectionOptions> = {},
    { replyPrefixes, drainGraceMs = DEFAULT_DRAIN_GRACE_MS }: { replyPrefixes?: readonly string[]; drainGraceMs?: number } = {},
  ): Promise<NatsTransport> {
    const options: ConnectionOptions = {
      ...identity,
      servers: url.split(',').map((s) => s.trim()),
      name,
      // Reconnect forever: a NATS restart must never take a process down.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      pingInterval: 5_000,
      maxPingOut: 2,
      // The client would capture a stack trace for every request, in case it fails: a
      // measurable cost on the hot path, for traces our own errors name anyway.
      noAsyncTraces: true,
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const nc = await connect(options);
        log.info({ server: nc.getServer() }, 'connected to NATS');
        return new NatsTransport(nc, log, identity.inboxPrefix, replyPrefixes, drainGraceMs);
      } catch (error) {
        if (!UNREACHABLE.has(errorCode(error) ?? '')) {
          // A ConfigError: the command line prints it as one line, not the client's stack trace.
          throw new ConfigError(`NATS at ${printableNatsUrl(url)} refused this process: ${error instanceof Error ? error.message : String(error)}. Check NATS_NKEY_SEED, NATS_CREDS and NATS_TLS_CA.`, { cause: error });
        }
        if (attempt % 20 === 1) log.warn({ url: printableNatsUrl(url) }, 'NATS not reachable yet; waiting');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect') {
        this.connected = false;
        this.replies?.failAll((subject) => new BusDisconnectedError(subject));
        this.log.warn({ server: s.data }, 'NATS connection lost; reconnecting');
      } else if (s.type === 'reconnect') {
        this.connected = true;
        this.log.info({ server: s.data }, 'NATS connection restored');
      }
    }
  }

  isConnected(): boolean {
    return this.connected && !this.nc.isClosed() && !this.nc.isDraining();
  }

  async request(subject: string, data: Uint8Array, options: { headers: BusHeaders; timeoutMs: number }): Promise<BusMessage> {
    // Fail fast instead of buffering a request that will only time out.
    if (!this.isConnected()) throw new BusDisconnectedError(subject);
    this.replies ??= new ReplyInbox(this.nc, this.inboxPrefix, this.sends);
    try {
      const headers = fromHeaders(options.headers);
      const reply = await this.replies.request(subject, options.timeoutMs, (replyTo) => this.nc.publish(subject, data, { reply: replyTo, headers }));
      return { subject, data: reply.data, headers: toHeaders(reply.headers) };
    } catch (error) {
      if (error instanceof NoRespondersError || error instanceof BusTimeoutError) throw error;
      throw new BusDisconnectedError(subject, error);
    }
  }

  subscribe(subject: string, queue: string, handler: BusHandler): BusSubscription {
    const inFlight = new Set<Promise<void>>();
    const handle = (msg: Msg): void => {
      // NATS was taken for unreachable at shutdown: its reply could not be sent, and the process is
      // closing what the work needs (a request that arrives as NATS thaws, before close()).
      if (this.drainGrace.wasCut) return;
      // Refused before any work: a write would be done for an answer that must not be sent.
      if (msg.reply && this.replyPrefixes && !this.replyPrefixes.some((prefix) => msg.reply?.startsWith(prefix))) {
        this.log.warn({ subject, reply_to: msg.reply }, "request refused: its reply subject is no requester's inbox");
        return;
      }
      const done = handler({ subject: msg.subject, data: msg.data, headers: toHeaders(msg.headers) })
        .then((reply) => {
          if (msg.reply) this.sends.send(() => msg.respond(reply), (error) => this.log.error({ err: error, subject }, 'reply not sent'));
        })
        .catch((error: unknown) => this.log.error({ err: error, subject }, 'bus handler failed without a reply'))
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    };
    const sub = this.nc.subscribe(subject, { queue, callback: (err, msg) => (err ? this.log.error({ err }, 'subscription error') : handle(msg)) });
    return {
      drain: async () => {
        // Stop taking messages (pending ones are still delivered), then wait for replies to go out.
        if (!sub.isClosed()) await this.drainWithinGrace(sub.drain());
        while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        this.sends.flush();
      },
    };
  }

  /** Queued with the requests and replies, so that every send leaves in the order it was made. */
  publish(subject: string, data: Uint8Array): void {
    this.sends.send(
      () => {
        if (!this.nc.isClosed()) this.nc.publish(subject, data);
      },
      (error) => this.log.warn({ err: error, subject }, 'broadcast not sent'),
    );
  }

  listen(subject: string, handler: (data: Uint8Array) => void): BusSubscription {
    const sub = this.nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        // What a handler throws (a broadcast that is not the JSON it expects) would end nats.js's
        // reader, and with it every request of this process: one bad message is dropped instead.
        try {
          handler(msg.data);
        } catch (error) {
          this.log.warn({ err: error, subject }, 'broadcast not handled');
        }
      },
    });
    return { drain: async () => void (sub.isClosed() ? undefined : await this.drainWithinGrace(sub.drain())) };
  }

  /** A JetStream key-value bucket (created when missing), e.g. for counts shared by gateways. */
  /**
   * Opens a key-value bucket that exists, without creating it (a gateway may not create
   * streams: ./nats-permissions.ts); rejects with `KeyValueBucketMissingError` when it does not.
   */
  async openKeyValue(bucket: string): Promise<KV> {
    // Reads through the stream API, never direct gets: see keyValueSubjects in ./nats-permissions.ts.
    const kv = await this.nc.jetstream().views.kv(bucket, { bindOnly: true, allow_direct: false });
    return this.refuseForeign(bucket, kv);
  }

  async createKeyValue(bucket: string, options: { ttlMs: number; replicas: number }): Promise<KV> {
    const kv = await this.nc.jetstream().views.kv(bucket, { ttl: options.ttlMs, history: 1, replicas: options.replicas, allow_direct: false });
    return this.refuseForeign(bucket, kv);
  }

  private async refuseForeign(bucket: string, kv: KV): Promise<KV> {
    const status = await kv.status().catch((error: unknown) => {
      throw isStreamNotFound(error) ? new KeyValueBucketMissingError(bucket) : error;
    });
    const problem = keyValueStreamProblem(bucket, status.streamInfo.config);
    if (problem) throw new ForeignKeyValueBucketError(`The JetStream stream KV_${bucket} was not made by this service: it ${problem}. Delete it (nats stream rm KV_${bucket}) and rotate the NATS key that made it.`);
    return kv;
  }

  jetStream(): JetStreamClient {
    return this.nc.jetstream();
  }

  /**
   * A JetStream publish is a request whose answer is the stream's acknowledgement; sent on
   * this process's reply inbox, because nats.js's own builds an Error with a stack trace for
   * every request it settles (the relay's profile showed it during a bulk import).
   */
  maxMessageBytes(): number {
    // NATS's default until the server's INFO says otherwise.
    return this.nc.info?.max_payload ?? 1024 * 1024;
  }

  async publishToStream(subject: string, data: Uint8Array | string, msgId: string, timeoutMs: number): Promise<void> {
    if (!this.isConnected()) throw new BusDisconnectedError(subject);
    this.replies ??= new ReplyInbox(this.nc, this.inboxPrefix, this.sends);
    const headers = natsHeaders();
    headers.set('Nats-Msg-Id', msgId);
    const reply = await this.replies.request(subject, timeoutMs, (replyTo) => this.nc.publish(subject, data, { reply: replyTo, headers }));
    const ack = JSON.parse(new TextDecoder().decode(reply.data)) as { stream?: string; error?: { code?: number; description?: string } };
    if (ack.error || !ack.stream) throw new Error(`the stream refused ${subject}: ${ack.error?.description ?? 'no acknowledgement'} (${ack.error?.code ?? 'unknown'})`);
  }

  jetStreamManager(): Promise<JetStreamManager> {
    return this.nc.jetstreamManager();
  }

  /**
   * Drains the connection (what was sent so far reaches the server), waiting for a server that
   * is away up to the drain grace period, then closes without it, saying so.
   */
  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    this.sends.flush();
    await this.drainWithinGrace(this.nc.drain());
    // nats.js ends a drain whose last PING a disconnect cut without closing the connection.
    if (!this.nc.isClosed()) {
      this.saidDrainCut();
      await this.nc.close();
    }
  }

  /** Waits for a drain of NATS within the grace period; past it, says once that the shutdown goes on without NATS. */
  private async drainWithinGrace(drain: Promise<unknown>): Promise<void> {
    if (!(await this.drainGrace.within(drain))) this.saidDrainCut();
  }

  private saidDrainCut(): void {
    if (this.drainCut) return;
    this.drainCut = true;
    // Nothing acknowledged is lost by it: a requester past its deadline has answered 503 already,
    // and an event whose acknowledgement is dropped comes again from the stream.
    this.log.warn(
      { grace_ms: this.drainGrace.graceMs, connected: this.connected },
      'NATS unreachable at shutdown: closing without it; replies and acknowledgements not yet sent are dropped',
    );
  }

  /**
   * As close(), but while the server is away at once, without waiting out the drain grace
   * period for it: for a reader with nothing of its own to send (crm events tail on Ctrl-C
   * during an outage).
   */
  async closeNow(): Promise<void> {
    if (this.connected || this.nc.isClosed()) return this.close();
    await this.nc.close();
  }
}
