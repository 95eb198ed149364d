import type { BusSubscription } from '../../shared/bus/transport.js';
import type { Logger } from '../../shared/logger.js';
import { Semaphore } from './concurrency.js';
import { healthHandler } from './health.js';
import { serveOperation } from './serve-operation.js';
import type { BackgroundTask, WorkerDefinition, WorkerServices } from './worker-call.js';

export interface RunningWorkers {
  /** Stops taking messages, finishes every message already taken, and stops upkeep timers. */
  drain(): Promise<void>;
}

/** `background: false` for the command line's in-process workers: they answer its calls and nothing else. */
export function startWorkers(
  definitions: WorkerDefinition[],
  services: WorkerServices,
  log: Logger,
  concurrency: number,
  options: { background?: boolean } = {},
): RunningWorkers {
  const slots = new Semaphore(concurrency);
  const subscriptions: BusSubscription[] = [];
  const timers: NodeJS.Timeout[] = [];
  const tasks: BackgroundTask[] = [];

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
    if (def.background && options.background !== false) tasks.push(def.background(services, workerLog));
    workerLog.info({ operations: def.handlers.map((h) => h.op.name) }, 'worker ready');
  }

  return {
    drain: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all([...subscriptions.map((s) => s.drain()), ...tasks.map((task) => task.stop())]);
    },
  };
}
