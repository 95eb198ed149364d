import { z } from 'zod';
import { defineOperation, WORKER_NAMES, type WorkerName } from '../bus/operation.js';

export const WorkerHealth = z.object({ worker: z.enum(WORKER_NAMES), database: z.literal('ok') });

/** Each worker answers its own health subject after checking its database connection. */
export function healthOf(worker: WorkerName) {
  return defineOperation({ worker, resource: 'health', verb: 'check', readOnly: true, scoped: false, input: z.object({}), output: WorkerHealth });
}
