import type { createPipeline } from '../../shared/contracts/pipelines.js';
import { uniqueViolation } from '../../shared/db/sql.js';
import { ValidationError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { DEFAULT_STAGES } from './default-pipeline.js';
import { refuseDesignPastLimit } from './design-size.js';
import { nameConflict, nameTaken } from './name-conflicts.js';
import { loadPipeline } from './pipeline-resource.js';
import { clearDefaultPipeline, type ClearedDefault } from './switch-default-pipeline.js';

export const createPipelineHandler: OperationHandler<typeof createPipeline> = async ({ input, em, db, events }) => {
  // Named, so that a create retried without an idempotency key can go on with the pipeline it made.
  const taken = await nameTaken(db, input.name, {});
  if (taken) throw taken;
  const id = newId('pipeline');
  let cleared = null as ClearedDefault | null;
  try {
    await em.transactional(async (tx) => {
      const txDb = db.within(tx);
      const now = new Date();
      if (input.is_default) cleared = await clearDefaultPipeline(txDb, id);
      await txDb
        .insertInto('pipelines')
        .values({ id, workspace_id: db.workspaceId, name: input.name, is_default: input.is_default ?? false, archived_at: null, created_at: now, updated_at: now })
        .execute();
      const stages = input.stages ?? DEFAULT_STAGES;
      await txDb
        .insertInto('stages')
        .values(
          stages.map((name, position) => ({
            id: newId('stage'),
            workspace_id: db.workspaceId,
            pipeline_id: id,
            name,
            position,
            archived_at: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      await refuseDesignPastLimit(txDb);
    });
  } catch (error) {
    // The contract's check of unique stage names folds case as JavaScript does; Postgres' lower() folds a few letters otherwise (İ to i).
    if (uniqueViolation(error) === 'stages_pipeline_name_key') throw new ValidationError('stages: stage names must be unique (case, extra spaces and characters that show as nothing ignored).', 'stages');
    throw nameConflict(error, input.name);
  }
  const created = await loadPipeline(db, id);
  if (cleared) await events.record({ type: 'pipeline.updated', object: cleared.after, previous: cleared.before });
  await events.record({ type: 'pipeline.created', object: created });
  return created;
};
