import type { Pipeline, updatePipeline } from '../../shared/contracts/pipelines.js';
import { leftAsIs } from '../runtime/left-as-is.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { nameConflict, nameTaken } from './name-conflicts.js';
import { loadPipeline, lockPipeline } from './pipeline-resource.js';
import { clearDefaultPipeline, type ClearedDefault } from './switch-default-pipeline.js';

export const updatePipelineHandler: OperationHandler<typeof updatePipeline> = async ({ input, em, db, events }) => {
  let before: Pipeline | undefined;
  let cleared = null as ClearedDefault | null;
  try {
    await em.transactional(async (tx) => {
      const txDb = db.within(tx);
      // The default switch's lock first, as a create takes it: the same order in every switch.
      if (input.is_default) cleared = await clearDefaultPipeline(txDb, input.id);
      await lockPipeline(txDb, input.id);
      const current = await loadPipeline(txDb, input.id);
      // The same values again change nothing: no write, so updated_at stays and no event is recorded.
      if (leftAsIs(input.name, current.name) && leftAsIs(input.is_default, current.is_default)) return;
      if (input.name !== undefined) {
        const taken = await nameTaken(txDb, input.name, { except: input.id });
        if (taken) throw taken;
      }
      before = current;
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
  if (cleared) await events.record({ type: 'pipeline.updated', object: cleared.after, previous: cleared.before });
  if (before) await events.record({ type: 'pipeline.updated', object: updated, previous: before });
  return updated;
};
