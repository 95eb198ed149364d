import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';

export interface Placement {
  pipelineId: string;
  stageId: string;
}

async function findStage(db: WorkspaceSql, stageId: string) {
  const stage = await db
    .selectFrom('stages')
    .select(['id', 'pipeline_id', 'name', 'archived_at'])
    .where('id', '=', stageId)
    .executeTakeFirst();
  if (!stage) throw new NotFoundError('stage', stageId, 'stage_id');
  if (stage.archived_at) throw new ValidationError(`stage_id: the stage "${stage.name}" is archived; deals cannot move into it.`, 'stage_id');
  return stage;
}

async function firstStageOf(db: WorkspaceSql, pipelineId: string | null): Promise<Placement> {
  const stage = await db
    .selectFrom('stages as s')
    .innerJoin(db.table('pipelines', 'p'), 'p.id', 's.pipeline_id')
    .select(['s.id', 's.pipeline_id'])
    .where('s.archived_at', 'is', null)
    .$if(pipelineId === null, (q) => q.where('p.is_default', '=', true))
    .$if(pipelineId !== null, (q) => q.where('p.id', '=', pipelineId!))
    .orderBy('s.position')
    .limit(1)
    .executeTakeFirst();
  if (stage) return { pipelineId: stage.pipeline_id, stageId: stage.id };
  if (pipelineId === null) throw new ValidationError('pipeline_id: the workspace has no default pipeline; name one.', 'pipeline_id');
  const exists = await db.selectFrom('pipelines').select('id').where('id', '=', pipelineId).executeTakeFirst();
  if (!exists) throw new NotFoundError('pipeline', pipelineId, 'pipeline_id');
  throw new ValidationError('pipeline_id: the pipeline has no active stage.', 'pipeline_id');
}

/**
 * Where a deal goes. A stage names its pipeline; a pipeline alone means its first stage;
 * neither means the default pipeline. A stage of another pipeline is a 400: a deal
 * changes pipeline only when pipeline_id says so.
 */
export async function resolvePlacement(
  db: WorkspaceSql,
  requested: { pipeline_id?: string; stage_id?: string },
  current?: Placement,
): Promise<Placement> {
  const targetPipeline = requested.pipeline_id ?? current?.pipelineId;
  if (requested.stage_id !== undefined) {
    const stage = await findStage(db, requested.stage_id);
    if (targetPipeline !== undefined && stage.pipeline_id !== targetPipeline) {
      const how = requested.pipeline_id === undefined ? "the deal's pipeline" : 'pipeline_id';
      throw new ValidationError(`stage_id: the stage "${stage.name}" belongs to another pipeline than ${how}.`, 'stage_id');
    }
    return { pipelineId: stage.pipeline_id, stageId: stage.id };
  }
  if (current && (requested.pipeline_id === undefined || requested.pipeline_id === current.pipelineId)) return current;
  return firstStageOf(db, requested.pipeline_id ?? null);
}
