import type { Orm } from '../../../shared/db/orm.js';
import type { Logger } from '../../../shared/logger.js';
import type { EventSink } from './event-sinks.js';
import type { RelayLease } from './relay-lease.js';
import { markPublished, unpublishedEvents } from './unpublished-events.js';

const BATCH = 500;
/** Looks again this often without a notification (a lost wake-up, another process's commit during a reconnect). */
const POLL_MS = 1_000;
/** How often a copy without the lease tries to take it. */
const LEASE_RETRY_MS = 2_000;
const MAX_BACKOFF_MS = 10_000;

/**
 * Publishes committed events (the outbox) in order, from whichever worker copy holds the
 * lease. An event is marked published only after the sink has stored it, so a crash or an
 * unreachable NATS leaves it to be published again (the stream drops the duplicate).
 */
export class EventRelay {
  private stopped = false;
  /** A commit arrived while the relay was busy: look again at once rather than after the poll. */
  private pending = false;
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

  private wake = (): void => {
    this.pending = true;
    this.wakeUp?.();
  };

  private async sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = null;
    this.pending = false;
  }

  private async run(): Promise<void> {
    let backoff = 500;
    while (!this.stopped) {
      try {
        if (!this.lease.held) {
          const acquired = await this.lease.tryAcquire(this.wake, () => this.log.warn('event relay lease lost; trying again'));
          if (!acquired) {
            await this.sleep(LEASE_RETRY_MS);
            continue;
          }
          this.log.info('relaying events (this copy holds the relay lease)');
        }
        await this.drain();
        backoff = 500;
        await this.sleep(POLL_MS);
      } catch (err) {
        if (this.stopped) break;
        this.log.warn({ err, retry_ms: backoff }, 'event relay failed; events stay unpublished until it succeeds');
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /** Publishes until nothing is left (a burst may be larger than one batch). */
  private async drain(): Promise<void> {
    while (!this.stopped) {
      const em = this.orm.em.fork();
      const events = await unpublishedEvents(em, BATCH);
      if (events.length === 0) return;
      await this.sink.publish(events);
      await markPublished(em, events.map((e) => e.id));
      if (events.length < BATCH) return;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.done;
    await this.lease.release();
  }
}
