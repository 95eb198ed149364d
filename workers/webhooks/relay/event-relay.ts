import type { Orm } from '../../../shared/db/orm.js';
import type { Logger } from '../../../shared/logger.js';
import type { EventSink } from './event-sinks.js';
import type { RelayLease } from './relay-lease.js';
import { markPublished, unpublishedEvents } from './unpublished-events.js';

const BATCH = 500;
/**
 * How often the relay looks for new events while they flow. A look at the outbox (which
 * holds only what is unpublished) costs well under a millisecond; LISTEN/NOTIFY would wake
 * it sooner, but NOTIFY in every write serialises all commits on one lock (measured: write
 * throughput fell to a fifth).
 */
const POLL_MS = 25;
/** After this long without events the polls slow down (a quiet deployment, or many test stacks on one database server)… */
const IDLE_AFTER_MS = 3_000;
/** …to this; the first event after a quiet spell waits at most this long. */
const IDLE_POLL_MS = 250;
/** How often a copy without the lease tries to take it. */
const LEASE_RETRY_MS = 2_000;
const MAX_BACKOFF_MS = 10_000;

/**
 * Publishes committed events (the outbox) in order, from whichever worker copy holds the
 * lease. Events leave the outbox only after the sink has stored them, so a crash or an
 * unreachable NATS leaves them to be published again (the stream drops the duplicates).
 */
export class EventRelay {
  private stopped = false;
  /** When the relay last found events to publish. */
  private lastEventsAt = Date.now();
  /** Ends the current wait early (on stop). */
  private wakeUp: (() => void) | null = null;
  private readonly done: Promise<void>;

  constructor(
    private readonly orm: Orm,
    private readonly lease: RelayLease,
    private readonly sink: EventSink,
    private readonly log: Logger,
  ) {
    this.done = this.run();
  }

  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = null;
  }

  private async run(): Promise<void> {
    let backoff = 500;
    while (!this.stopped) {
      try {
        if (!this.lease.held) {
          const acquired = await this.lease.tryAcquire(() => this.log.warn('event relay lease lost; trying again'));
          if (!acquired) {
            await this.sleep(LEASE_RETRY_MS);
            continue;
          }
          this.log.info('relaying events (this copy holds the relay lease)');
        }
        const published = await this.drain();
        backoff = 500;
        if (published > 0) this.lastEventsAt = Date.now();
        await this.sleep(Date.now() - this.lastEventsAt > IDLE_AFTER_MS ? IDLE_POLL_MS : POLL_MS);
      } catch (err) {
        if (this.stopped) break;
        this.log.warn({ err, retry_ms: backoff }, 'event relay failed; events stay unpublished until it succeeds');
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /** Publishes until nothing is left (a burst may be larger than one batch); returns how many it published. */
  private async drain(): Promise<number> {
    let published = 0;
    // A lease lost mid-burst leaves the rest to the copy that takes it.
    while (!this.stopped && this.lease.held) {
      const em = this.orm.em.fork();
      const events = await unpublishedEvents(em, BATCH);
      if (events.length === 0) return published;
      await this.sink.publish(events);
      // Out of the outbox only once the stream has them: a crash in between publishes them
      // again, and the stream's message ids drop the copies.
      await markPublished(em, events.map((e) => e.id));
      published += events.length;
      if (events.length < BATCH) return published;
    }
    return published;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.done;
    await this.lease.release();
  }
}
