import type { BusSubscription } from '../../shared/bus/transport.js';
import type { Logger } from '../../shared/logger.js';
import { Semaphore } from './concurrency.js';
import { healthHandler } from './health.js';
import { serveOperation } from './serve-operation.js';
import type { WorkerDefinition, WorkerServices } from './worker-call.js';

export interface RunningWorkers {
  /** Stops taking messages, finishes every message already taken, and stops upkeep timers. */
  drain(): Promise<void>;
}

export function startWorkers(definitions: WorkerDefinition[], services: WorkerServices, log: Logger, concurrency: number): RunningWorkers {
  const slots = new Semaphore(concurrency);
  const subscriptions: BusSubscription[] = [];
  const timers: NodeJS.Timeout[] = [];

  for (const def of definitions) {
    const workerLog = log.child({ worker: def.name });
    for (const binding of [...def.handlers, healthHandler(def.name)]) {
      subscriptions.push(serveOperation(binding, services, workerLog, slots));
    }
    const upkeep = def.maintenance;
    if (upkeep) {
      const timer = setInterval(() => {
        upkeep.run(services, workerLog).catch((err: unknown) => workerLog.warn({ err }, 'maintenance failed'));
      }, upkeep.everyMs);
      timer.unref();
      timers.push(timer);
    }
    workerLog.info({ operations: def.handlers.map((h) => h.op.name) }, 'worker ready');
  }

  return {
    drain: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all(subscriptions.map((s) => s.drain()));
    },
  };
}
