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
