import type { Pipeline, updatePipeline } from '../../shared/contracts/pipelines.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { clearDefaultPipeline } from './create-pipeline.js';
import { nameConflict } from './name-conflicts.js';
import { loadPipeline, lockPipeline } from './pipeline-resource.js';

export const updatePipelineHandler: OperationHandler<typeof updatePipeline> = async ({ input, em, db, events }) => {
  let before: Pipeline | undefined;
  try {
    await em.transactional(async (tx) => {
      const txDb = db.within(tx);
      await lockPipeline(txDb, input.id);
      before = await loadPipeline(txDb, input.id);
      if (input.is_default) await clearDefaultPipeline(txDb);
      await txDb
        .updateTable('pipelines')
        .set({ name: input.name, is_default: input.is_default, updated_at: new Date() })
        .where('id', '=', input.id)
        .execute();
    });
  } catch (error) {
    throw nameConflict(error, input.name ?? '');
  }
  const updated = await loadPipeline(db, input.id);
  if (before) await events.record({ type: 'pipeline.updated', object: updated, previous: before });
  return updated;
};
