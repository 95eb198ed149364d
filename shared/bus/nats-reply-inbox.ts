import { createInbox, type Msg, type MsgHdrs, type NatsConnection } from 'nats';
import type { CoalescedSends } from './coalesced-sends.js';
import { BusTimeoutError, NoRespondersError } from './transport.js';

interface Pending {
  subject: string;
  resolve(msg: Msg): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Request/reply over one inbox subscription, as nats.js's own requests work, without
 * what they cost per call: the client builds an Error (with its stack trace) for every
 * request it settles, whether it failed or not, which showed in the gateway's profile.
 * Replies come to `<inbox>.<n>`; the server answers a request nobody takes with a 503.
 */
export class ReplyInbox {
  private readonly pending = new Map<string, Pending>();
  private readonly prefix: string;
  private next = 0;

  /** The subscription ends with the connection (its drain). */
  constructor(
    nc: NatsConnection,
    inboxPrefix: string | undefined,
    private readonly sends: CoalescedSends,
  ) {
    this.prefix = `${createInbox(inboxPrefix)}.`;
    // With an error (the subscription refused or closed), the message is empty: reading it would throw in nats.js's reader.
    nc.subscribe(`${this.prefix}*`, { callback: (err, msg) => void (err ? undefined : this.settle(msg)) });
  }

  /** Sends through `publish` (coalesced with the other sends of this turn of the loop) with this inbox as the reply subject; resolves with the reply. */
  request(subject: string, timeoutMs: number, publish: (replyTo: string) => void): Promise<Msg> {
    const token = String(this.next++);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new BusTimeoutError(subject, timeoutMs));
      }, timeoutMs);
      this.pending.set(token, { subject, resolve, reject, timer });
      this.sends.send(
        () => {
          // Failed already (the connection dropped): a write sent now would be made while its caller was told it was not.
          if (this.pending.has(token)) publish(this.prefix + token);
        },
        (error) => {
          clearTimeout(timer);
          this.pending.delete(token);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /**
   * The connection dropped: replies to what is in flight went to a subscription that is
   * gone, so those requests fail now (BusDisconnectedError: reads are sent again, writes
   * answered 503) instead of each waiting out its deadline.
   */
  failAll(error: (subject: string) => Error): void {
    for (const [token, pending] of this.pending) {
      this.pending.delete(token);
      clearTimeout(pending.timer);
      pending.reject(error(pending.subject));
    }
  }

  private settle(msg: Msg): void {
    const token = msg.subject.slice(this.prefix.length);
    const pending = this.pending.get(token);
    if (!pending) return;
    this.pending.delete(token);
    clearTimeout(pending.timer);
    if (isNoResponders(msg.headers)) pending.reject(new NoRespondersError(pending.subject));
    else pending.resolve(msg);
  }
}

function isNoResponders(headers: MsgHdrs | undefined): boolean {
  return headers !== undefined && headers.hasError && headers.code === 503;
}
