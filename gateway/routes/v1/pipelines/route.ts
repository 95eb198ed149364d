import { Router } from 'express';
import {
  archiveStage,
  createPipeline,
  createStage,
  getPipeline,
  listPipelines,
  updatePipeline,
  updateStage,
} from '../../../../shared/contracts/pipelines.js';
import { mountEndpoint } from '../../../api/mount-endpoint.js';
import { callWorker } from '../../../call-worker.js';
import type { GatewayDeps } from '../../../deps.js';
import {
  archiveStageEndpoint,
  createPipelineEndpoint,
  createStageEndpoint,
  getPipelineEndpoint,
  listPipelinesEndpoint,
  updatePipelineEndpoint,
  updateStageEndpoint,
} from './endpoints.js';

export function pipelinesRoutes({ bus, publicUrl }: GatewayDeps): Router {
  const router = Router();

  mountEndpoint(router, listPipelinesEndpoint, async ({ req }) => ({ object: 'list' as const, data: (await callWorker(bus, req, listPipelines, {})).result.data }));

  mountEndpoint(router, createPipelineEndpoint, async ({ body, idempotencyKey, req, res }) => {
    const { result, replayed } = await callWorker(bus, req, createPipeline, body, { idempotencyKey });
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.location(`${publicUrl()}/v1/pipelines/${result.id}`);
    return result;
  });

  mountEndpoint(router, getPipelineEndpoint, async ({ params, req }) => (await callWorker(bus, req, getPipeline, params)).result);

  mountEndpoint(router, updatePipelineEndpoint, async ({ params, body, req }) => (await callWorker(bus, req, updatePipeline, { ...body, id: params.id })).result);

  mountEndpoint(router, createStageEndpoint, async ({ params, body, req, res }) => {
    const { result } = await callWorker(bus, req, createStage, { ...body, pipeline_id: params.id });
    res.location(`${publicUrl()}/v1/pipelines/${result.id}`);
    return result;
  });

  mountEndpoint(
    router,
    updateStageEndpoint,
    async ({ params, body, req }) => (await callWorker(bus, req, updateStage, { ...body, pipeline_id: params.id, stage_id: params.stage_id })).result,
  );

  mountEndpoint(
    router,
    archiveStageEndpoint,
    async ({ params, req }) => (await callWorker(bus, req, archiveStage, { pipeline_id: params.id, stage_id: params.stage_id })).result,
  );

  return router;
}
