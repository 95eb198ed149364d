import { Counter, Histogram, type Registry } from 'prom-client';

/** Request latency buckets in seconds: 1 ms to 10 s (the bus deadline is 5 s by default). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface RequestMetricsSpec<L extends string> {
  /** The counter (by labels and outcome), e.g. `crm_bus_requests_total`. */
  count: { name: string; help: string };
  /** The latency histogram (by labels), e.g. `crm_bus_request_duration_seconds`. */
  duration: { name: string; help: string };
  /** Labels of both series; the counter also has `outcomeLabel`. */
  labels: readonly L[];
  outcomeLabel: string;
}

/**
 * The pair every request-like thing here is measured with (HTTP requests, bus calls,
 * worker messages): a counter by labels and outcome, and a latency histogram by labels.
 */
export class RequestMetrics<L extends string> {
  private readonly count: Counter;
  private readonly duration: Histogram;

  constructor(
    registry: Registry,
    private readonly spec: RequestMetricsSpec<L>,
  ) {
    const registers = [registry];
    this.count = new Counter({ ...spec.count, labelNames: [...spec.labels, spec.outcomeLabel], registers });
    this.duration = new Histogram({ ...spec.duration, labelNames: [...spec.labels], buckets: LATENCY_BUCKETS, registers });
  }

  observe(labels: Record<L, string>, outcome: string, seconds: number): void {
    this.count.inc({ ...labels, [this.spec.outcomeLabel]: outcome });
    this.duration.observe(labels, seconds);
  }
}
