import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';

/** These stages with their pipelines' names, in pipeline order as list_pipelines and GET /v1/pipelines give it (the default first, then oldest first) and stage order. */
export async function stagesWithPipelines(db: WorkspaceSql, stageIds: readonly string[]) {
  if (stageIds.length === 0) return [];
  return db
    .selectFrom('stages as s')
    .innerJoin(db.table('pipelines', 'p'), 'p.id', 's.pipeline_id')
    .select(['s.id', 's.name', 's.pipeline_id', 'p.name as pipeline_name'])
    .where('s.id', 'in', [...new Set(stageIds)])
    .orderBy('p.is_default', 'desc')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .orderBy('s.position')
    .orderBy('s.created_at')
    .execute();
}
