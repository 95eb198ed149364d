import type { WorkerDefinition } from '../runtime/worker-call.js';

/** Custom fields, pipelines and stages. Serves its health subject; the schema operations arrive with the CRM model. */
export const schemaWorker: WorkerDefinition = { name: 'schema', handlers: [] };
