import { z } from 'zod';
import {
  archiveStage,
  createPipeline,
  createStage,
  getPipeline,
  listPipelines,
  MAX_ACTIVE_STAGES,
  Pipeline,
  updatePipeline,
  updateStage,
} from '../../../../shared/contracts/pipelines.js';
import { defineEndpoint } from '../../../api/endpoint.js';
import { CreatePipelineBody, CreateStageBody, PipelineIdParams, StageParams, UpdatePipelineBody, UpdateStageBody } from './validators.js';

const tag = 'Pipelines';
const writeErrors = ['not_found', 'conflict'] as const;

export const PipelineList = z.object({ object: z.literal('list'), data: z.array(Pipeline) }).meta({ id: 'PipelineList' });

export const listPipelinesEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/pipelines',
  operationId: 'listPipelines',
  summary: 'List pipelines with their stages',
  description: 'Every pipeline of the workspace, the default first. Not paged: a workspace has few.',
  tag,
  op: listPipelines,
  response: PipelineList,
  status: 200,
});

export const createPipelineEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/pipelines',
  operationId: 'createPipeline',
  summary: 'Create a pipeline',
  tag,
  op: createPipeline,
  body: CreatePipelineBody,
  status: 201,
  errors: [...writeErrors, 'idempotency_key_reused'],
  location: (pipeline) => `/v1/pipelines/${pipeline.id}`,
});

export const getPipelineEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/pipelines/{id}',
  operationId: 'getPipeline',
  summary: 'Retrieve a pipeline with its stages',
  tag,
  op: getPipeline,
  params: PipelineIdParams,
  status: 200,
  errors: ['not_found'],
});

export const updatePipelineEndpoint = defineEndpoint({
  method: 'patch',
  path: '/v1/pipelines/{id}',
  operationId: 'updatePipeline',
  summary: 'Rename a pipeline or make it the default',
  tag,
  op: updatePipeline,
  params: PipelineIdParams,
  body: UpdatePipelineBody,
  status: 200,
  errors: [...writeErrors],
});

export const createStageEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/pipelines/{id}/stages',
  operationId: 'createStage',
  summary: 'Add a stage to a pipeline',
  description: `Stage names are unique within their pipeline; a pipeline has at most ${MAX_ACTIVE_STAGES} active stages. Returns the whole pipeline, and the stage added under \`stage\`.`,
  tag,
  op: createStage,
  params: PipelineIdParams,
  body: CreateStageBody,
  input: ({ params, body }) => ({ ...body, pipeline_id: params.id }),
  status: 201,
  errors: [...writeErrors],
  location: (pipeline) => `/v1/pipelines/${pipeline.id}`,
});

export const updateStageEndpoint = defineEndpoint({
  method: 'patch',
  path: '/v1/pipelines/{id}/stages/{stage_id}',
  operationId: 'updateStage',
  summary: 'Rename, reorder or restore a stage',
  description:
    '`archived: false` restores an archived stage: last among the active stages unless `position` is given, under its name unless `name` is given (a 409 naming the active stage that has it, if one does), with the deals still in it. On an active stage it changes nothing. Returns the whole pipeline, with the new order, and the stage changed under `stage`.',
  tag,
  op: updateStage,
  params: StageParams,
  body: UpdateStageBody,
  input: ({ params, body }) => ({ ...body, pipeline_id: params.id, stage_id: params.stage_id }),
  status: 200,
  errors: [...writeErrors],
});

export const archiveStageEndpoint = defineEndpoint({
  method: 'delete',
  path: '/v1/pipelines/{id}/stages/{stage_id}',
  operationId: 'archiveStage',
  summary: 'Archive a stage',
  description:
    'Deals in it stay there, but no deal can move into it. A pipeline keeps at least one active stage. PATCH with `archived: false` restores it. Returns the whole pipeline, and the stage archived under `stage`.',
  tag,
  op: archiveStage,
  params: StageParams,
  input: ({ params }) => ({ pipeline_id: params.id, stage_id: params.stage_id }),
  status: 200,
  errors: ['not_found', 'conflict'],
});

export const pipelineEndpoints = [
  listPipelinesEndpoint,
  createPipelineEndpoint,
  getPipelineEndpoint,
  updatePipelineEndpoint,
  createStageEndpoint,
  updateStageEndpoint,
  archiveStageEndpoint,
];
