import { Router } from 'express';
import type { BusClient } from '../../shared/bus/bus-client.js';
import { WORKER_NAMES } from '../../shared/bus/operation.js';
import { healthOf } from '../../shared/contracts/health.js';
import { busCheck, readinessOf, type ReadinessChecks } from '../../shared/metrics/readiness.js';
import type { GatewayDeps } from '../deps.js';

const READY_TIMEOUT_MS = 2_000;
/**
 * How long one probe's answer serves the /readyz requests after it. The public port takes
 * them without a credential and each probe costs a bus call and a query per worker: probes
 * made per request let a flood of them load every worker and Postgres.
 */
const READY_REUSE_MS = 500;

type Readiness = ReturnType<typeof readinessOf>;

/**
 * /healthz: the process is up. /readyz: the bus, Postgres (through each worker) and
 * one worker of each kind answer; load balancers send traffic only then.
 */
export function healthRoutes({ bus }: GatewayDeps): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // The probe in flight or lately answered, which requests until it is READY_REUSE_MS old share.
  let latest: { until: number; readiness: Promise<Readiness> } | null = null;
  router.get('/readyz', async (req, res) => {
    if (!latest || latest.until <= Date.now()) {
      const readiness = probe(bus, req.requestId);
      latest = { until: Number.POSITIVE_INFINITY, readiness };
      const current = latest;
      void readiness.finally(() => (current.until = Date.now() + READY_REUSE_MS));
    }
    const { status, body } = await latest.readiness;
    res.status(status).json(body);
  });

  return router;
}

async function probe(bus: BusClient, requestId: string): Promise<Readiness> {
  const checks: ReadinessChecks = { bus: busCheck(bus.transport) };
  await Promise.all(
    WORKER_NAMES.map(async (worker) => {
      try {
        await bus.call(healthOf(worker), {}, { context: null, requestId, timeoutMs: READY_TIMEOUT_MS, retry: false });
        checks[worker] = 'ok';
      } catch {
        // The public port says which part is down, never why: the admin port's /readyz has the details.
        checks[worker] = 'unavailable';
      }
    }),
  );
  return readinessOf(checks);
}
