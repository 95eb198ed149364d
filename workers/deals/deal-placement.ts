import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { CrmError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { isMadeId } from '../../shared/ids.js';
import { archivedStageMoveMessage } from '../../shared/contracts/archived-stage-move.js';
import { sameName } from '../runtime/same-name.js';

/** The other pipelines named when a stage name is found elsewhere: enough to choose from, not a listing. */
const MAX_PIPELINES_NAMED = 3;

export interface Placement {
  pipelineId: string;
  stageId: string;
}

/**
 * Locks the pipeline a deal goes to FOR KEY SHARE, as the deal's foreign key does at its write,
 * but before its stage: a stage change (archive, insert, reorder) locks the pipeline and then
 * its stages, so a deal write holding a stage and then needing the pipeline deadlocked with it.
 * Deal writes do not wait for one another here (KEY SHARE locks share).
 */
async function lockPipelineFirst(db: WorkspaceSql, target: { pipelineId: string } | { stageId: string } | 'default'): Promise<void> {
  let query = db.selectFrom('pipelines').select('id');
  if (target === 'default') query = query.where('is_default', '=', true);
  else if ('pipelineId' in target) query = query.where('id', '=', target.pipelineId);
  else query = query.where('id', '=', (eb) => eb.selectFrom(db.table('stages', 's')).select('s.pipeline_id').where('s.id', '=', target.stageId));
  await query.forKeyShare().execute();
}

/**
 * The stage a deal goes to, FOR SHARE until the write commits: the deals→stages key takes only
 * FOR KEY SHARE, which lets an archive of the stage commit under the move. Its pipeline first: see {@link lockPipelineFirst}.
 */
async function findStage(db: WorkspaceSql, stageId: string) {
  await lockPipelineFirst(db, { stageId });
  const stage = await db
    .selectFrom('stages')
    .select(['id', 'pipeline_id', 'name', 'archived_at'])
    .where('id', '=', stageId)
    .forShare()
    .executeTakeFirst();
  if (!stage) throw new NotFoundError('stage', stageId, 'stage_id');
  // Where it is restored, said: "cannot move into it" alone read as for good, and the stage as one to give up on.
  if (stage.archived_at) throw new CrmError('validation_failed', archivedStageMoveMessage(stage), { param: 'stage_id', reason: 'stage_archived' });
  return stage;
}

async function firstStageOf(db: WorkspaceSql, pipelineId: string | null): Promise<Placement> {
  await lockPipelineFirst(db, pipelineId === null ? 'default' : { pipelineId });
  const stage = await db
    .selectFrom('stages as s')
    .innerJoin(db.table('pipelines', 'p'), 'p.id', 's.pipeline_id')
    .select(['s.id', 's.pipeline_id'])
    .where('s.archived_at', 'is', null)
    .$if(pipelineId === null, (q) => q.where('p.is_default', '=', true))
    .$if(pipelineId !== null, (q) => q.where('p.id', '=', pipelineId!))
    .orderBy('s.position')
    .limit(1)
    // The stage only (see findStage); an archive that commits first skips it for the next active one.
    .forShare('s')
    .executeTakeFirst();
  if (stage) return { pipelineId: stage.pipeline_id, stageId: stage.id };
  if (pipelineId === null) throw new ValidationError('pipeline_id: the workspace has no default pipeline; name one.', 'pipeline_id');
  const exists = await db.selectFrom('pipelines').select('id').where('id', '=', pipelineId).executeTakeFirst();
  if (!exists) throw new NotFoundError('pipeline', pipelineId, 'pipeline_id');
  throw new ValidationError('pipeline_id: the pipeline has no active stage.', 'pipeline_id');
}

/** The pipeline a deal is in or goes to: the one named, else the current one, else the default. */
async function pipelineOf(db: WorkspaceSql, pipelineId: string | undefined): Promise<string> {
  if (pipelineId !== undefined) return pipelineId;
  const pipeline = await db.selectFrom('pipelines').select('id').where('is_default', '=', true).executeTakeFirst();
  if (!pipeline) throw new ValidationError('pipeline_id: the workspace has no default pipeline; name one.', 'pipeline_id');
  return pipeline.id;
}

/**
 * A stage by name within one pipeline; an unknown or ambiguous name is a 400 that lists the valid names.
 * `own`: where the deal is, in this pipeline; its stage's name given back means it even once archived.
 */
async function stageNamed(db: WorkspaceSql, pipelineId: string, name: string, own?: Placement): Promise<Placement> {
  // Case and spacing ignored, as the stage filter of the lists and the names' uniqueness do (sameName).
  const named = sameName('name', name);
  const stages = await db
    .selectFrom('stages')
    .select(['id', 'pipeline_id', 'name', named.as('matches')])
    .where('pipeline_id', '=', pipelineId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .execute();
  if (stages.length === 0) {
    const exists = await db.selectFrom('pipelines').select('id').where('id', '=', pipelineId).executeTakeFirst();
    if (!exists) throw new NotFoundError('pipeline', pipelineId, 'pipeline_id');
  }
  const matches = stages.filter((s) => s.matches);
  const valid = stages.map((s) => `"${s.name}"`).join(', ');
  // Read again FOR SHARE (see findStage): one row locked rather than the pipeline's every stage.
  if (matches.length === 1) {
    const stage = await findStage(db, matches[0]!.id);
    return { pipelineId: stage.pipeline_id, stageId: stage.id };
  }
  if (matches.length > 1) throw new ValidationError(`stage: several stages of the pipeline are named "${name}"; give stage_id instead (${matches.map((s) => s.id).join(', ')}).`, 'stage');
  if (own) {
    const stage = await db.selectFrom('stages').select(named.as('matches')).where('id', '=', own.stageId).executeTakeFirst();
    if (stage?.matches) return own;
  }
  throw new ValidationError(`stage: the pipeline has no active stage named "${name}". Valid names: ${valid || 'none'}.${await elsewhere(db, pipelineId, name)}`, 'stage');
}

/**
 * Where else a stage of this name is, as the words that say how to reach it: a name is looked
 * up in one pipeline only, and "Valid names: …" alone left a caller (an agent most of all)
 * unaware that the stage it meant is in another pipeline, reached by giving its pipeline_id.
 */
async function elsewhere(db: WorkspaceSql, pipelineId: string, name: string): Promise<string> {
  const others = await db
    .selectFrom('stages as s')
    .innerJoin(db.table('pipelines', 'p'), 'p.id', 's.pipeline_id')
    .select(['p.id', 'p.name'])
    .where('s.pipeline_id', '<>', pipelineId)
    .where('s.archived_at', 'is', null)
    .where(sameName('s.name', name))
    .orderBy('p.is_default', 'desc')
    .orderBy('p.name')
    .limit(MAX_PIPELINES_NAMED + 1)
    .execute();
  if (others.length === 0) return '';
  const listed = others.slice(0, MAX_PIPELINES_NAMED).map((p) => `"${p.name}" (${p.id})`);
  const more = others.length > MAX_PIPELINES_NAMED ? ' and others' : '';
  return ` A stage of that name is in the pipeline ${listed.join(', ')}${more}: to place the deal there, give that pipeline_id with the stage.`;
}

/**
 * Where a deal goes. A stage (by id, or by name within the deal's pipeline) names its pipeline; a pipeline alone means its first stage;
 * neither means the default pipeline. A stage of another pipeline is a 400: a deal
 * changes pipeline only when pipeline_id says so.
 */
export async function resolvePlacement(
  db: WorkspaceSql,
  requested: { pipeline_id?: string; stage_id?: string; stage?: string },
  current?: Placement,
): Promise<Placement> {
  const targetPipeline = requested.pipeline_id ?? current?.pipelineId;
  if (requested.stage !== undefined) {
    if (requested.stage_id !== undefined) throw new ValidationError('stage: give stage or stage_id, not both.', 'stage');
    // A stage id in stage, as find_deals' stage takes one: the stage it names, as stage_id would, its refusals naming stage.
    const text = requested.stage.trim();
    if (isMadeId('stage', text)) return asStageArgument(() => resolvePlacement(db, { pipeline_id: requested.pipeline_id, stage_id: text }, current));
    const pipelineId = await pipelineOf(db, targetPipeline);
    // As with stage_id: the name of the deal's own stage given back is no move, even when that stage has been archived since.
    return stageNamed(db, pipelineId, requested.stage, current?.pipelineId === pipelineId ? current : undefined);
  }
  if (requested.stage_id !== undefined) {
    // Echoing the deal's own stage is no move, even when that stage has been archived since.
    if (current && requested.stage_id === current.stageId && (requested.pipeline_id === undefined || requested.pipeline_id === current.pipelineId)) return current;
    const stage = await findStage(db, requested.stage_id);
    if (targetPipeline !== undefined && stage.pipeline_id !== targetPipeline) {
      const how = requested.pipeline_id === undefined ? "the deal's pipeline" : 'the one pipeline_id names';
      // Which pipeline it is in: the pipeline_id to give (or to correct) for the move the caller meant.
      throw new ValidationError(
        `stage_id: the stage "${stage.name}" belongs to the pipeline ${stage.pipeline_id}, not to ${how}; to place the deal there, give pipeline_id ${stage.pipeline_id} with it.`,
        'stage_id',
      );
    }
    return { pipelineId: stage.pipeline_id, stageId: stage.id };
  }
  if (current && (requested.pipeline_id === undefined || requested.pipeline_id === current.pipelineId)) return current;
  return firstStageOf(db, requested.pipeline_id ?? null);
}

/** A refusal of a stage id given as stage, naming stage (the argument the caller sent) rather than stage_id. */
async function asStageArgument(place: () => Promise<Placement>): Promise<Placement> {
  try {
    return await place();
  } catch (error) {
    if (!(error instanceof CrmError) || error.details.param !== 'stage_id') throw error;
    throw new CrmError(error.code, error.message.replace(/^stage_id:/, 'stage:'), { ...error.details, param: 'stage' });
  }
}
