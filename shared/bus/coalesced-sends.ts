interface Send {
  write(): void;
  failed(error: unknown): void;
}

/**
 * Sends made during one turn of the event loop, written to the socket together. nats.js
 * writes what it has queued at the end of each microtask checkpoint, and every request (or
 * reply) begins in an I/O callback of its own, so under load each one cost a system call
 * and a wake-up of the NATS server. Deferred to `setImmediate`, the sends of all the
 * callbacks that one poll of the event loop ran go out together: in one write, unless they
 * pass the 32 KB at which nats.js writes at once. At rest the delay is that of one callback.
 * nats.js's own traffic (subscriptions, acknowledgements, key-value calls) does not pass here.
 */
export class CoalescedSends {
  private queued: Send[] = [];

  /** `write` runs soon, in order with the other sends; `failed` gets what it throws. */
  send(write: () => void, failed: (error: unknown) => void): void {
    if (this.queued.push({ write, failed }) === 1) setImmediate(this.flush);
  }

  /** Runs what is queued now (before the connection drains, so nothing queued is refused). */
  readonly flush = (): void => {
    const queued = this.queued;
    if (queued.length === 0) return;
    this.queued = [];
    for (const send of queued) {
      try {
        send.write();
      } catch (error) {
        // A report that fails itself must not cost the sends after it.
        try {
          send.failed(error);
        } catch {
          /* nothing left to tell */
        }
      }
    }
  };
}
