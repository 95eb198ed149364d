import { sql } from 'kysely';
import type { Pipeline, PipelineWithStage, Stage } from '../../shared/contracts/pipelines.js';
import { isoTimestamp } from '../../shared/db/sql.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../shared/errors.js';

interface StageJson {
  id: string;
  pipeline_id: string;
  name: string;
  position: number | null;
  archived: boolean;
  created_at: string;
  updated_at: string;
}

function toStage(s: StageJson): Stage {
  return { object: 'stage', ...s, created_at: isoTimestamp(s.created_at), updated_at: isoTimestamp(s.updated_at) };
}

/** Pipelines with their stages (active in order, then archived), in one query; the default first. */
export async function loadPipelines(db: WorkspaceSql, id?: string): Promise<Pipeline[]> {
  const stages = db
    .selectFrom('stages as s')
    .select(
      sql`coalesce(json_agg(json_build_object(
        'id', s.id, 'pipeline_id', s.pipeline_id, 'name', s.name, 'position', s.position,
        'archived', s.archived_at is not null, 'created_at', s.created_at, 'updated_at', s.updated_at
      ) order by s.archived_at nulls first, s.position, s.created_at), '[]')`.as('stages'),
    )
    .where('s.pipeline_id', '=', sql.ref<string>('p.id'));
  const rows = await db
    .selectFrom('pipelines as p')
    .select(['p.id', 'p.name', 'p.is_default', 'p.created_at', 'p.updated_at'])
    .select(sql<StageJson[]>`${stages}`.as('stages'))
    .$if(id !== undefined, (q) => q.where('p.id', '=', id!))
    .orderBy('p.is_default', 'desc')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
  return rows.map((p) => ({
    object: 'pipeline' as const,
    id: p.id,
    name: p.name,
    is_default: p.is_default,
    stages: p.stages.map(toStage),
    created_at: isoTimestamp(p.created_at),
    updated_at: isoTimestamp(p.updated_at),
  }));
}

export async function loadPipeline(db: WorkspaceSql, id: string): Promise<Pipeline> {
  const [pipeline] = await loadPipelines(db, id);
  if (!pipeline) throw new NotFoundError('pipeline', id, 'id');
  return pipeline;
}

/** A stage write's answer: the pipeline and the stage written (stages are archived, never deleted, so it is there). */
export async function loadPipelineWithStage(db: WorkspaceSql, pipelineId: string, stageId: string): Promise<PipelineWithStage> {
  const pipeline = await loadPipeline(db, pipelineId);
  const stage = pipeline.stages.find((s) => s.id === stageId);
  if (!stage) throw new NotFoundError('stage', stageId, 'stage_id');
  return { ...pipeline, stage };
}

/** Locks the pipeline row for the rest of the transaction: changes to its stage order queue up. */
export async function lockPipeline(tx: WorkspaceSql, id: string): Promise<void> {
  const row = await tx.selectFrom('pipelines').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw new NotFoundError('pipeline', id, 'id');
}
