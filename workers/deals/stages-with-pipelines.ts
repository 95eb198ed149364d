import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';

/** Whose active stages to list besides the stages given: one pipeline's, or those of every active pipeline. */
export type ActiveStagesOf = { pipeline_id: string } | 'every active pipeline';

/**
 * These stages with their pipelines' names, in pipeline order as list_pipelines and GET /v1/pipelines give it (the default first, then oldest first) and stage order.
 * `activeOf`: every active stage of that pipeline (or of every active pipeline) too, so a stage holding nothing is listed rather than missing.
 */
export async function stagesWithPipelines(db: WorkspaceSql, stageIds: readonly string[], activeOf?: ActiveStagesOf) {
  if (stageIds.length === 0 && activeOf === undefined) return [];
  return db
    .selectFrom('stages as s')
    .innerJoin(db.table('pipelines', 'p'), 'p.id', 's.pipeline_id')
    .select(['s.id', 's.name', 's.pipeline_id', 'p.name as pipeline_name'])
    .where((eb) => {
      const listed = stageIds.length > 0 ? [eb('s.id', 'in', [...new Set(stageIds)])] : [];
      const inPipeline = activeOf === 'every active pipeline' ? eb('p.archived_at', 'is', null) : activeOf ? eb('s.pipeline_id', '=', activeOf.pipeline_id) : undefined;
      const active = inPipeline ? [eb.and([inPipeline, eb('s.archived_at', 'is', null)])] : [];
      return eb.or([...listed, ...active]);
    })
    .orderBy('p.is_default', 'desc')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .orderBy('s.position')
    .orderBy('s.created_at')
    .execute();
}
