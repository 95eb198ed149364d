import type { archiveStage } from '../../shared/contracts/pipelines.js';
import { sqlOf } from '../../shared/db/sql.js';
import { ConflictError } from '../../shared/errors.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { loadPipeline, lockPipeline } from './pipeline-resource.js';
import { activeStages, shiftStages, stageNotFound } from './stage-order.js';

/**
 * Archives a stage: it leaves the order, deals in it stay, and no deal can move into it.
 * A pipeline keeps at least one active stage, so deals always have somewhere to go.
 */
export const archiveStageHandler: OperationHandler<typeof archiveStage> = async ({ input, context, em }) => {
  const workspaceId = context.workspace_id;
  await em.transactional(async (tx) => {
    await lockPipeline(tx, workspaceId, input.pipeline_id);
    const exists = await sqlOf(tx)
      .selectFrom('stages')
      .select(['id', 'archived_at'])
      .where('workspace_id', '=', workspaceId)
      .where('pipeline_id', '=', input.pipeline_id)
      .where('id', '=', input.stage_id)
      .executeTakeFirst();
    if (!exists) throw stageNotFound(input.stage_id);
    if (exists.archived_at) return;
    const stages = await activeStages(tx, workspaceId, input.pipeline_id);
    const stage = stages.find((s) => s.id === input.stage_id);
    if (!stage || stage.position === null) throw stageNotFound(input.stage_id);
    if (stages.length === 1) throw new ConflictError('A pipeline needs at least one active stage; add another before archiving this one.', 'stage_id');
    await sqlOf(tx).updateTable('stages').set({ archived_at: new Date(), position: null, updated_at: new Date() }).where('id', '=', stage.id).execute();
    await shiftStages(tx, input.pipeline_id, stage.position + 1, stages.length - 1, -1);
  });
  return loadPipeline(em, workspaceId, input.pipeline_id);
};
