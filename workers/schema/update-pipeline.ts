import type { updatePipeline } from '../../shared/contracts/pipelines.js';
import { sqlOf } from '../../shared/db/sql.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { clearDefaultPipeline } from './create-pipeline.js';
import { nameConflict } from './name-conflicts.js';
import { loadPipeline, lockPipeline } from './pipeline-resource.js';

export const updatePipelineHandler: OperationHandler<typeof updatePipeline> = async ({ input, context, em }) => {
  const workspaceId = context.workspace_id;
  try {
    await em.transactional(async (tx) => {
      await lockPipeline(tx, workspaceId, input.id);
      if (input.is_default) await clearDefaultPipeline(tx, workspaceId);
      await sqlOf(tx)
        .updateTable('pipelines')
        .set({ name: input.name, is_default: input.is_default, updated_at: new Date() })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', input.id)
        .execute();
    });
  } catch (error) {
    throw nameConflict(error, input.name ?? '');
  }
  return loadPipeline(em, workspaceId, input.id);
};
