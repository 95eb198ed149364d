import type { Pipeline, updateStage } from '../../shared/contracts/pipelines.js';
import { ConflictError } from '../../shared/errors.js';
import { leftAsIs } from '../runtime/left-as-is.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { nameConflict, nameTaken } from './name-conflicts.js';
import { recordStageChange } from './stage-events.js';
import { loadPipeline, loadPipelineWithStage, lockPipeline } from './pipeline-resource.js';
import { restoreStage } from './restore-stage.js';
import { activeStages, moveStageTo, shiftStages, stageNotFound } from './stage-order.js';

/**
 * Renames a stage and/or moves it to `position`; the stages in between shift by one. With
 * `archived: false`, an archived stage comes back (restore-stage.ts); on an active one that
 * asks for nothing, as restoring an active custom field does.
 */
export const updateStageHandler: OperationHandler<typeof updateStage> = async ({ input, em, db, events }) => {
  let before: Pipeline | undefined;
  // The name the write gives the stage: what a unique index refusing it (a race) is about.
  let written: string | undefined = input.name;
  try {
    await em.transactional(async (tx) => {
      const txDb = db.within(tx);
      await lockPipeline(txDb, input.pipeline_id);
      before = await loadPipeline(txDb, input.pipeline_id);
      const stages = await activeStages(txDb, input.pipeline_id);
      const stage = stages.find((s) => s.id === input.stage_id);
      if (!stage || stage.position === null) {
        // An archived stage is still there (its deals stay in it): say so rather than that it does not exist.
        const archived = before.stages.find((s) => s.id === input.stage_id && s.archived);
        if (!archived) throw await stageNotFound(txDb, input.stage_id);
        if (input.archived !== false) {
          throw new ConflictError(`The stage "${archived.name}" is archived; an archived stage is neither renamed nor moved. Restore it first with archived: false.`, 'stage_id');
        }
        written ??= archived.name;
        await restoreStage(txDb, { pipelineId: input.pipeline_id, stage: archived, name: input.name, position: input.position });
        return;
      }
      if (input.name !== undefined) {
        const taken = await nameTaken(txDb, input.name, { pipelineId: input.pipeline_id, except: stage.id });
        if (taken) throw taken;
      }
      let position = stage.position;
      if (input.position !== undefined) {
        const move = moveStageTo(stage.position, input.position, stages.length);
        position = move.position;
        await shiftStages(txDb, input.pipeline_id, move.shift);
      }
      // The same name at the same place changes nothing: no write, so updated_at stays (recordStageChange then records nothing).
      if (leftAsIs(input.name, stage.name) && position === stage.position) return;
      await txDb.updateTable('stages').set({ name: input.name, position, updated_at: new Date() }).where('id', '=', stage.id).execute();
    });
  } catch (error) {
    throw nameConflict(error, written ?? '');
  }
  const after = await loadPipelineWithStage(db, input.pipeline_id, input.stage_id);
  if (before) await recordStageChange(events, 'stage.updated', input.stage_id, before, after);
  return after;
};
