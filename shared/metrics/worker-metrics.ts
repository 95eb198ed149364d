import { Gauge, type Registry } from 'prom-client';
import { RequestMetrics } from './request-metrics.js';

/** The worker's side of the bus: every message handled, by subject and outcome, and those in hand. */
export class WorkerMessageMetrics {
  private readonly handled: RequestMetrics<'subject'>;
  private readonly inFlight: Gauge;

  constructor(registry: Registry) {
    this.handled = new RequestMetrics(registry, {
      count: { name: 'crm_worker_messages_total', help: 'Bus messages a worker answered, by subject and outcome (ok or an error code)' },
      duration: { name: 'crm_worker_message_duration_seconds', help: 'Time a worker spent on one message, waiting for a slot included' },
      labels: ['subject'],
      outcomeLabel: 'outcome',
    });
    this.inFlight = new Gauge({ name: 'crm_worker_messages_in_flight', help: 'Messages taken and not yet answered', registers: [registry] });
  }

  taken(): void {
    this.inFlight.inc();
  }

  done(subject: string, outcome: string, seconds: number): void {
    this.inFlight.dec();
    this.handled.observe({ subject }, outcome, seconds);
  }
}
