import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS } from './registry.js';

/** The worker's side of the bus: every message handled, by subject and outcome. */
export class WorkerMessageMetrics {
  private readonly handled: Counter<'subject' | 'outcome'>;
  private readonly duration: Histogram<'subject'>;
  readonly inFlight: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.handled = new Counter({
      name: 'crm_worker_messages_total',
      help: 'Bus messages a worker answered, by subject and outcome (ok or an error code)',
      labelNames: ['subject', 'outcome'],
      registers,
    });
    this.duration = new Histogram({
      name: 'crm_worker_message_duration_seconds',
      help: 'Time a worker spent on one message, waiting for a slot included',
      labelNames: ['subject'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.inFlight = new Gauge({ name: 'crm_worker_messages_in_flight', help: 'Messages taken and not yet answered', registers });
  }

  done(subject: string, outcome: string, seconds: number): void {
    this.handled.inc({ subject, outcome });
    this.duration.observe({ subject }, seconds);
  }
}
