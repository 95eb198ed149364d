import { Counter, type Registry } from 'prom-client';
import type { BusObserver, CallOutcome } from '../bus/bus-client.js';
import { RequestMetrics } from './request-metrics.js';

/** The caller's side of the bus (gateway, CLI): every request by subject and outcome. */
export class BusCallMetrics implements BusObserver {
  private readonly calls: RequestMetrics<'subject'>;
  private readonly timeouts: Counter<'subject'>;
  private readonly retries: Counter<'subject' | 'reason'>;

  constructor(registry: Registry) {
    this.calls = new RequestMetrics(registry, {
      count: { name: 'crm_bus_requests_total', help: 'Bus requests sent, by subject and outcome (ok, an error code, timeout, no_responders, disconnected)' },
      duration: { name: 'crm_bus_request_duration_seconds', help: 'Time from sending a bus request to its reply (last attempt)' },
      labels: ['subject'],
      outcomeLabel: 'outcome',
    });
    this.timeouts = new Counter({
      name: 'crm_bus_timeouts_total',
      help: 'Bus requests that a worker took but did not answer before the deadline',
      labelNames: ['subject'],
      registers: [registry],
    });
    this.retries = new Counter({
      name: 'crm_bus_retries_total',
      help: 'Safe bus requests (reads, writes with an idempotency key) sent again',
      labelNames: ['subject', 'reason'],
      registers: [registry],
    });
  }

  callDone(subject: string, outcome: CallOutcome, seconds: number): void {
    this.calls.observe({ subject }, outcome, seconds);
    if (outcome === 'timeout') this.timeouts.inc({ subject });
  }

  retried(subject: string, reason: CallOutcome): void {
    this.retries.inc({ subject, reason });
  }
}
