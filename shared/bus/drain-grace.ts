/**
 * How long a stopping process waits for NATS to confirm a drain (its subscriptions', then its
 * connection's): a drain ends with a PING answered, and with the server unreachable nats.js
 * waits for it to come back, however long that takes. Each wait is cut at the grace period;
 * once one was, NATS is taken for unreachable and later ones are not waited for at all.
 */
export class DrainGrace {
  private cut = false;

  constructor(readonly graceMs: number) {}

  /** True when `drain` settled within the grace period; false past it, and at once after a drain was cut. */
  async within(drain: Promise<unknown>): Promise<boolean> {
    if (this.cut) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), this.graceMs)));
    const settled = await Promise.race([
      drain.then(
        () => true,
        () => true,
      ),
      late,
    ]);
    clearTimeout(timer);
    if (!settled) this.cut = true;
    return settled;
  }
}
