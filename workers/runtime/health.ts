import { healthOf } from '../../shared/contracts/health.js';
import type { WorkerName } from '../../shared/bus/operation.js';
import { handle, type HandlerBinding, type UnscopedHandler } from './worker-call.js';

/** Every worker answers `<namespace>.<worker>.health.check` once its database answers. */
export function healthHandler(worker: WorkerName): HandlerBinding {
  const op = healthOf(worker);
  const check: UnscopedHandler<typeof op> = async ({ em }) => {
    await em.execute('select 1');
    return { worker, database: 'ok' as const };
  };
  return handle(op, check);
}
