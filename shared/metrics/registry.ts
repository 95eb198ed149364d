import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * One registry per process, labelled with the process role, so that a scrape of a
 * gateway and of a worker can be told apart. Default metrics include memory, CPU,
 * event-loop lag and garbage collection.
 */
export function createMetricsRegistry(component: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ component });
  collectDefaultMetrics({ register: registry, prefix: 'crm_' });
  return registry;
}

/** Request latency buckets in seconds: 1 ms to 10 s (the bus deadline is 5 s by default). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
