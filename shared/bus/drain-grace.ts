/**
 * The shortest grace period: a process whose event loop stalled longer than a very short
 * BUS_TIMEOUT_MS (tests set 100 ms) would otherwise cut the drain of a healthy NATS.
 */
const MIN_GRACE_MS = 2_000;

/**
 * How long a stopping process waits for NATS to confirm a drain (its subscriptions', then its
 * connection's): a drain ends with a PING answered, and with the server unreachable nats.js
 * waits for it to come back, however long that takes. Each wait is cut at the grace period;
 * once one was, NATS is taken for unreachable and later ones are not waited for at all.
 */
export class DrainGrace {
  private cut = false;
  readonly graceMs: number;

  constructor(graceMs: number) {
    this.graceMs = Math.max(graceMs, MIN_GRACE_MS);
  }

  /** A drain was cut: NATS is taken for unreachable for the rest of the shutdown. */
  get wasCut(): boolean {
    return this.cut;
  }

  /** True when `drain` settled within the grace period; false past it, and at once after a drain was cut. */
  async within(drain: Promise<unknown>): Promise<boolean> {
    // Not waited for, but never an unhandled rejection once it fails.
    const settling = drain.then(
      () => true,
      () => true,
    );
    if (this.cut) return false;
    let timer: NodeJS.Timeout | undefined;
    // Resolved a turn after the timer fires, so that an answer already received (the PONG that
    // ends the drain, read in the same turn) wins over a timer that came due in a stall.
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => setImmediate(() => resolve(false)), this.graceMs)));
    const settled = await Promise.race([settling, late]);
    clearTimeout(timer);
    if (!settled) this.cut = true;
    return settled;
  }
}
