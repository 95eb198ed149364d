import { Router } from 'express';
import { WORKER_NAMES } from '../../shared/bus/operation.js';
import { healthOf } from '../../shared/contracts/health.js';
import { busCheck, readinessOf, type ReadinessChecks } from '../../shared/metrics/readiness.js';
import type { GatewayDeps } from '../deps.js';

const READY_TIMEOUT_MS = 2_000;

/**
 * /healthz: the process is up. /readyz: the bus, Postgres (through each worker) and
 * one worker of each kind answer; load balancers send traffic only then.
 */
export function healthRoutes({ bus }: GatewayDeps): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (req, res) => {
    const checks: ReadinessChecks = { bus: busCheck(bus.transport) };
    await Promise.all(
      WORKER_NAMES.map(async (worker) => {
        try {
          await bus.call(healthOf(worker), {}, { context: null, requestId: req.requestId, timeoutMs: READY_TIMEOUT_MS, retry: false });
          checks[worker] = 'ok';
        } catch {
          // The public port says which part is down, never why: the admin port's /readyz has the details.
          checks[worker] = 'unavailable';
        }
      }),
    );
    const { status, body } = readinessOf(checks);
    res.status(status).json(body);
  });

  return router;
}
