import { MAX_ACTIVE_STAGES, type createStage } from '../../shared/contracts/pipelines.js';
import { ConflictError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { refuseDesignPastLimit } from './design-size.js';
import { nameConflict, nameTaken } from './name-conflicts.js';
import { loadPipelineWithStage, lockPipeline } from './pipeline-resource.js';
import { activeStages, insertStageAt, shiftStages } from './stage-order.js';

/** Inserts a stage at `position` (default last); the stages from there on move down one. */
export const createStageHandler: OperationHandler<typeof createStage> = async ({ input, em, db, events }) => {
  const id = newId('stage');
  try {
    await em.transactional(async (tx) => {
      const txDb = db.within(tx);
      await lockPipeline(txDb, input.pipeline_id);
      const stages = await activeStages(txDb, input.pipeline_id);
      // As many as create_pipeline takes: a pipeline's stages are one page of a board, and every read carries them all.
      if (stages.length >= MAX_ACTIVE_STAGES) {
        throw new ConflictError(`A pipeline has at most ${MAX_ACTIVE_STAGES} active stages, and this one has ${stages.length}; archive one before adding another.`);
      }
      const taken = await nameTaken(txDb, input.name, { pipelineId: input.pipeline_id });
      if (taken) throw taken;
      const { position, shift } = insertStageAt(input.position, stages.length);
      await shiftStages(txDb, input.pipeline_id, shift);
      const now = new Date();
      await txDb
        .insertInto('stages')
        .values({ id, workspace_id: db.workspaceId, pipeline_id: input.pipeline_id, name: input.name, position, archived_at: null, created_at: now, updated_at: now })
        .execute();
      await refuseDesignPastLimit(txDb);
    });
  } catch (error) {
    throw nameConflict(error, input.name);
  }
  const written = await loadPipelineWithStage(db, input.pipeline_id, id);
  await events.record({ type: 'stage.created', object: written.stage });
  return written;
};
