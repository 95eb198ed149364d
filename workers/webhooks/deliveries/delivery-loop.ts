import { pgTimestamp } from '../../../shared/db/sql.js';
import { AttemptBatch } from './attempt-batch.js';
import { attemptDelivery, type DeliveryDeps, type DeliveryEndpoint } from './attempt-delivery.js';
import { claimDueDeliveries, handBackDeliveries } from './claim-due-deliveries.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';
import type { QueuedDelivery } from './fan-out-event.js';
import { InFlightShares, type ShareCaps } from './in-flight-shares.js';

/** How long what the fan-out read of an endpoint may stand in for reading it again before sending. */
const ENDPOINT_READ_FRESH_MS = 1_000;

export interface DeliveryLoopOptions {
  /** Attempts in flight at once in this process. */
  concurrency: number;
  /** How often the loop looks for due deliveries when nothing wakes it (retries of other copies, expired leases). */
  pollMs: number;
  /** Of those, at most this many for one workspace and for one endpoint. */
  shares: ShareCaps;
}

/**
 * A delivery taken, not yet sent. `leaseEndsAt` (this process's clock) for a claimed one: its
 * lease was set by the database's clock, and this copy's may be ahead or behind.
 */
interface ReadyDelivery {
  row: WebhookDeliveryRow;
  endpoint?: DeliveryEndpoint;
  readAt?: number;
  leaseEndsAt?: number;
}

/**
 * Sends deliveries: those the event consumer just queued (leased to this copy, handed over
 * at once, so an event reaches its endpoints within milliseconds), and those found due by
 * a claim: retries at the time this copy scheduled them, and by a slow poll the rest
 * (other copies' retries, expired leases). Copies share the work through the claim.
 */
export class DeliveryLoop {
  private inFlight = new Set<Promise<void>>();
  /** Taken (leased to this copy), not yet sent; those just queued with their endpoint as the fan-out read it, and when it did. */
  private ready: ReadyDelivery[] = [];
  /** Callers of {@link room} waiting for `ready` to shrink. */
  private roomWaiters: (() => void)[] = [];
  /** The one timer for the earliest retry this copy scheduled (the poll finds the later ones). */
  private retryTimer: { at: number; timer: NodeJS.Timeout } | null = null;
  private claiming: Promise<void> | null = null;
  private again = false;
  /** The last claim filled every free slot: more may be due. */
  private moreDue = false;
  private stopped = false;
  private readonly poll: NodeJS.Timeout;
  private readonly attempts: AttemptBatch;
  private readonly shares: InFlightShares;
  /** Deliveries being given back because their workspace or endpoint had no room. */
  private givingBack = new Set<Promise<void>>();

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly options: DeliveryLoopOptions,
  ) {
    this.attempts = new AttemptBatch(deps.orm);
    this.shares = new InFlightShares(options.shares);
    this.poll = setInterval(() => this.wake(), options.pollMs);
    this.poll.unref();
  }

  /** How long a taken delivery is this copy's: it outlasts the longest attempt, with room for storing it. */
  get leaseMs(): number {
    return this.deps.settings.timeoutMs + 30_000;
  }

  /** How many taken deliveries may wait for a slot: a burst waits in the stream, not in memory, and none waits past its lease. */
  get readyLimit(): number {
    return this.options.concurrency * 2;
  }

  /**
   * Resolves once fewer than {@link readyLimit} deliveries wait to be sent: the event
   * consumer waits for it before taking more events, so a backlog stays in the stream.
   */
  room(): Promise<void> {
    if (this.stopped || this.ready.length < this.readyLimit) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Sends deliveries already leased to this copy (just queued by it), without claiming them; once stopping, {@link stop} gives them back. */
  send(deliveries: readonly QueuedDelivery[]): void {
    this.ready.push(...deliveries);
    this.pump();
  }

  /** Looks for due deliveries now; calls while a look is under way make it look once more. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claim()
      .catch((err: unknown) => this.deps.log.warn({ err }, 'claiming webhook deliveries failed'))
      .finally(() => {
        this.claiming = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async claim(): Promise<void> {
    const room = this.options.concurrency - this.inFlight.size - this.ready.length;
    if (room <= 0) {
      this.moreDue = true;
      return;
    }
    const rooms = this.shares.claimRooms(this.ready.map(({ row }) => row));
    const claimed = await claimDueDeliveries(this.deps.orm.em.fork(), room, this.leaseMs, rooms);
    const claimedAt = Date.now();
    this.moreDue = claimed.length === room;
    this.ready.push(...claimed.map(({ row, leaseLeftMs }) => ({ row, leaseEndsAt: claimedAt + leaseLeftMs })));
    this.pump();
  }

  /** Starts attempts while there is room; gives back those whose workspace or endpoint has none. */
  private pump(): void {
    const noRoom: WebhookDeliveryRow[] = [];
    while (!this.stopped && this.inFlight.size < this.options.concurrency && this.ready.length > 0) {
      const { row, endpoint, readAt = 0, leaseEndsAt } = this.ready.shift() as ReadyDelivery;
      // A lease that ends before this attempt could: another copy may claim it meanwhile, so
      // it is left to the claims (sent once, by whoever claims it next).
      // Those this copy queued were leased by its own clock; claimed ones by the database's, measured as time left.
      const leaseEnd = leaseEndsAt ?? (row.next_attempt_at === null ? null : pgTimestamp(row.next_attempt_at).getTime());
      if (leaseEnd !== null && leaseEnd < Date.now() + this.deps.settings.timeoutMs) continue;
      // Its workspace or endpoint holds its share of the slots (endpoints that answer slowly or
      // never): due again at once, for another copy, or this one once a slot of theirs frees.
      if (!this.shares.hasRoom(row)) {
        noRoom.push(row);
        continue;
      }
      // A delivery that waited for a slot reads its endpoint again: disabled, deleted or moved meanwhile, it must not be sent as read.
      const fresh = Date.now() - readAt <= ENDPOINT_READ_FRESH_MS ? endpoint : undefined;
      this.shares.take(row);
      const sending: Promise<void> = attemptDelivery(row, this.deps, this.attempts, fresh)
        .then((next) => {
          if (next) this.wakeAt(next);
        })
        .catch((err: unknown) => this.deps.log.error({ err, delivery_id: row.id }, 'webhook delivery failed unexpectedly; retried when its lease ends'))
        .finally(() => {
          this.inFlight.delete(sending);
          // Claims passed over its workspace's or endpoint's deliveries while it was full.
          const wasFull = !this.shares.hasRoom(row);
          this.shares.release(row);
          // A slot is free: take the next one taken already, and look for more if the last claim left some.
          if (this.ready.length > 0) this.pump();
          if (this.moreDue || wasFull) this.wake();
        });
      this.inFlight.add(sending);
    }
    if (noRoom.length > 0) this.giveBack(noRoom);
    if (this.ready.length < this.readyLimit) for (const resolve of this.roomWaiters.splice(0)) resolve();
  }

  /** Makes deliveries this copy took but has no room for due again, and looks for others that it has room for. */
  private giveBack(rows: WebhookDeliveryRow[]): void {
    this.moreDue = true;
    const giving: Promise<void> = handBackDeliveries(this.deps.orm.em.fork(), rows)
      .catch((err: unknown) => this.deps.log.warn({ err, deliveries: rows.length }, 'giving back webhook deliveries failed; sent when their lease ends'))
      .finally(() => {
        this.givingBack.delete(giving);
        this.wake();
      });
    this.givingBack.add(giving);
  }

  private wakeAt(when: Date): void {
    if (this.stopped) return;
    const at = when.getTime();
    if (this.retryTimer && this.retryTimer.at <= at) return;
    if (this.retryTimer) clearTimeout(this.retryTimer.timer);
    const timer = setTimeout(() => {
      this.retryTimer = null;
      this.wake();
    }, Math.max(0, at - Date.now()) + 5);
    timer.unref();
    this.retryTimer = { at, timer };
  }

  /** Starts no attempt and takes nothing more; {@link room} no longer waits (the event consumer's last batch then lands here at once). */
  stopSending(): void {
    this.stopped = true;
    clearInterval(this.poll);
    if (this.retryTimer) clearTimeout(this.retryTimer.timer);
    for (const resolve of this.roomWaiters.splice(0)) resolve();
  }

  /**
   * Stops sending, gives back what this copy took and has not attempted, and waits for the
   * attempts under way (each ends within WEBHOOK_TIMEOUT). Left leased, those waited for no
   * copy until their lease ended, WEBHOOK_TIMEOUT plus 30 s after they were taken.
   */
  async stop(): Promise<void> {
    this.stopSending();
    await this.claiming;
    const untried = this.ready.splice(0).map(({ row }) => row);
    await handBackDeliveries(this.deps.orm.em.fork(), untried).catch((err: unknown) =>
      this.deps.log.warn({ err, deliveries: untried.length }, 'giving back untried webhook deliveries failed; other copies send them when their lease ends'),
    );
    await Promise.allSettled([...this.givingBack]);
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
