import type { createPipeline } from '../../shared/contracts/pipelines.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { newId } from '../../shared/ids.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { DEFAULT_STAGES } from './default-pipeline.js';
import { nameConflict } from './name-conflicts.js';
import { loadPipeline } from './pipeline-resource.js';

/** Only one pipeline is the default: the previous one stops being it (same transaction). */
export async function clearDefaultPipeline(tx: EntityManager, workspaceId: string): Promise<void> {
  await sqlOf(tx).updateTable('pipelines').set({ is_default: false, updated_at: new Date() }).where('workspace_id', '=', workspaceId).where('is_default', '=', true).execute();
}

export const createPipelineHandler: OperationHandler<typeof createPipeline> = async ({ input, context, em }) => {
  const workspaceId = context.workspace_id;
  const id = newId('pipeline');
  try {
    await em.transactional(async (tx) => {
      const now = new Date();
      if (input.is_default) await clearDefaultPipeline(tx, workspaceId);
      await sqlOf(tx)
        .insertInto('pipelines')
        .values({ id, workspace_id: workspaceId, name: input.name, is_default: input.is_default ?? false, archived_at: null, created_at: now, updated_at: now })
        .execute();
      const stages = input.stages ?? DEFAULT_STAGES;
      await sqlOf(tx)
        .insertInto('stages')
        .values(
          stages.map((name, position) => ({
            id: newId('stage'),
            workspace_id: workspaceId,
            pipeline_id: id,
            name,
            position,
            archived_at: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    });
  } catch (error) {
    throw nameConflict(error, input.name);
  }
  return loadPipeline(em, workspaceId, id);
};
