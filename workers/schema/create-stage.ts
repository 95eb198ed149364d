import type { createStage } from '../../shared/contracts/pipelines.js';
import { sqlOf } from '../../shared/db/sql.js';
import { newId } from '../../shared/ids.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { nameConflict } from './name-conflicts.js';
import { loadPipeline, lockPipeline } from './pipeline-resource.js';
import { activeStages, shiftStages } from './stage-order.js';

/** Inserts a stage at `position` (default last); the stages from there on move down one. */
export const createStageHandler: OperationHandler<typeof createStage> = async ({ input, context, em }) => {
  const workspaceId = context.workspace_id;
  try {
    await em.transactional(async (tx) => {
      await lockPipeline(tx, workspaceId, input.pipeline_id);
      const stages = await activeStages(tx, workspaceId, input.pipeline_id);
      const position = Math.min(input.position ?? stages.length, stages.length);
      await shiftStages(tx, input.pipeline_id, position, stages.length - 1, 1);
      const now = new Date();
      await sqlOf(tx)
        .insertInto('stages')
        .values({ id: newId('stage'), workspace_id: workspaceId, pipeline_id: input.pipeline_id, name: input.name, position, archived_at: null, created_at: now, updated_at: now })
        .execute();
    });
  } catch (error) {
    throw nameConflict(error, input.name);
  }
  return loadPipeline(em, workspaceId, input.pipeline_id);
};
