import type { WorkerName } from '../shared/bus/operation.js';
import { contactsWorker } from './contacts/index.js';
import { dealsWorker } from './deals/index.js';
import { schemaWorker } from './schema/index.js';
import { tokensWorker } from './tokens/index.js';
import { webhooksWorker } from './webhooks/index.js';
import type { WorkerDefinition } from './runtime/worker-call.js';

export const WORKERS: Record<WorkerName, WorkerDefinition> = {
  contacts: contactsWorker,
  deals: dealsWorker,
  schema: schemaWorker,
  tokens: tokensWorker,
  webhooks: webhooksWorker,
};
