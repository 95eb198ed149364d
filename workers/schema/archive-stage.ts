import type { archiveStage, Pipeline } from '../../shared/contracts/pipelines.js';
import { ConflictError } from '../../shared/errors.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { loadPipeline, loadPipelineWithStage, lockPipeline } from './pipeline-resource.js';
import { recordStageChange } from './stage-events.js';
import { activeStages, removeStageAt, shiftStages, stageNotFound } from './stage-order.js';

/**
 * Archives a stage: it leaves the order, deals in it stay, and no deal can move into it.
 * A pipeline keeps at least one active stage, so deals always have somewhere to go.
 */
export const archiveStageHandler: OperationHandler<typeof archiveStage> = async ({ input, em, db, events }) => {
  let before: Pipeline | undefined;
  await em.transactional(async (tx) => {
    const txDb = db.within(tx);
    await lockPipeline(txDb, input.pipeline_id);
    before = await loadPipeline(txDb, input.pipeline_id);
    const exists = await txDb
      .selectFrom('stages')
      .select(['id', 'archived_at'])
      .where('pipeline_id', '=', input.pipeline_id)
      .where('id', '=', input.stage_id)
      .executeTakeFirst();
    if (!exists) throw await stageNotFound(txDb, input.stage_id);
    if (exists.archived_at) return;
    const stages = await activeStages(txDb, input.pipeline_id);
    const stage = stages.find((s) => s.id === input.stage_id);
    if (!stage || stage.position === null) throw await stageNotFound(txDb, input.stage_id);
    if (stages.length === 1) throw new ConflictError('A pipeline needs at least one active stage; add another before archiving this one.', 'stage_id');
    await txDb.updateTable('stages').set({ archived_at: new Date(), position: null, updated_at: new Date() }).where('id', '=', stage.id).execute();
    await shiftStages(txDb, input.pipeline_id, removeStageAt(stage.position, stages.length));
  });
  const written = await loadPipelineWithStage(db, input.pipeline_id, input.stage_id);
  if (before) await recordStageChange(events, 'stage.archived', input.stage_id, before, written);
  return written;
};
