import type { WorkerDefinition } from '../runtime/worker-call.js';

/** Deals and their stages. Serves its health subject; the deal operations arrive with the CRM model. */
export const dealsWorker: WorkerDefinition = { name: 'deals', handlers: [] };
