import { Counter, type Registry } from 'prom-client';
import type { Config } from '../../shared/config.js';

/** What a gateway does while the shared store cannot be reached (RATE_LIMIT_STORE_FAILURE). */
export type StoreFailurePolicy = Config['rateLimits']['storeFailure'];

/** The policy, and where requests decided without the shared store are counted. */
export interface StoreFailureHandling {
  policy: StoreFailurePolicy;
  /** `crm_rate_limit_store_unavailable_total{limiter,policy}`; null in unit tests that do not look. */
  decided: Counter<'limiter' | 'policy'> | null;
}

export function storeUnavailableCounter(registry: Registry): Counter<'limiter' | 'policy'> {
  return new Counter({
    name: 'crm_rate_limit_store_unavailable_total',
    help: 'Requests whose rate limit was decided without the shared store (unreachable), by limiter and RATE_LIMIT_STORE_FAILURE policy',
    labelNames: ['limiter', 'policy'],
    registers: [registry],
  });
}
