import type { getPipeline, listPipelines } from '../../shared/contracts/pipelines.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { loadPipeline, loadPipelines } from './pipeline-resource.js';

export const listPipelinesHandler: OperationHandler<typeof listPipelines> = async ({ db }) => ({
  data: await loadPipelines(db),
});

export const getPipelineHandler: OperationHandler<typeof getPipeline> = async ({ input, db }) => loadPipeline(db, input.id);
