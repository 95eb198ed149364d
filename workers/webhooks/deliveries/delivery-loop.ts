import { attemptDelivery, type DeliveryDeps } from './attempt-delivery.js';
import { claimDueDeliveries } from './claim-due-deliveries.js';

export interface DeliveryLoopOptions {
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** How often the loop looks for due deliveries when nothing wakes it (retries of other copies, expired leases). */
  pollMs: number;
}

/**
 * Sends due deliveries: woken at once when this process queues new ones (so an event
 * reaches its endpoints within milliseconds of arriving), at the time of each retry it
 * scheduled, and by a slow poll for the rest. Copies share the work through the claim.
 */
export class DeliveryLoop {
  private inFlight = new Set<Promise<void>>();
  private claiming: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly poll: NodeJS.Timeout;

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly options: DeliveryLoopOptions,
  ) {
    this.poll = setInterval(() => this.wake(), options.pollMs);
    this.poll.unref();
  }

  /** Looks for due deliveries now; calls while a look is under way make it look once more. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claimAndSend()
      .catch((err: unknown) => this.deps.log.warn({ err }, 'claiming webhook deliveries failed'))
      .finally(() => {
        this.claiming = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async claimAndSend(): Promise<void> {
    const room = this.options.concurrency - this.inFlight.size;
    // The lease outlasts the longest attempt, with room for storing it.
    const claimed = await claimDueDeliveries(this.deps.orm.em.fork(), room, this.deps.settings.timeoutMs + 30_000);
    for (const row of claimed) {
      const sending: Promise<void> = attemptDelivery(row, this.deps)
        .then((next) => {
          if (next) this.wakeAt(next);
        })
        .catch((err: unknown) => this.deps.log.error({ err, delivery_id: row.id }, 'webhook delivery failed unexpectedly; retried when its lease ends'))
        .finally(() => {
          this.inFlight.delete(sending);
          // A slot is free: more may be waiting.
          this.wake();
        });
      this.inFlight.add(sending);
    }
  }

  private wakeAt(when: Date): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.wake();
    }, Math.max(0, when.getTime() - Date.now()) + 5);
    timer.unref();
    this.timers.add(timer);
  }

  /** Takes nothing new and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    for (const timer of this.timers) clearTimeout(timer);
    await this.claiming;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}

/** The loop of this process, if it runs one: handlers that queue a delivery wake it after their commit. */
let running: DeliveryLoop | null = null;

export function setRunningDeliveryLoop(loop: DeliveryLoop | null): void {
  running = loop;
}

export function wakeDeliveryLoop(): void {
  running?.wake();
}
