import type { getPipeline, listPipelines } from '../../shared/contracts/pipelines.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { loadPipeline, loadPipelines } from './pipeline-resource.js';

export const listPipelinesHandler: OperationHandler<typeof listPipelines> = async ({ context, em }) => ({
  data: await loadPipelines(em, context.workspace_id),
});

export const getPipelineHandler: OperationHandler<typeof getPipeline> = async ({ input, context, em }) => loadPipeline(em, context.workspace_id, input.id);
