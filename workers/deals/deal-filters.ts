import { grantsScope } from '../../shared/auth/scopes.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import type { AppliedRange } from '../../shared/contracts/created-range.js';
import type { DealFilters } from '../../shared/contracts/deals.js';
import type { ScopedSelect, WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { sql } from 'kysely';
import { foldedLikePrefix } from '../runtime/like-prefix.js';
import { sameName } from '../runtime/same-name.js';
import { requireVisibleContact } from './deal-references.js';

/** Filters as applied: a stage name resolved to ids, the creation range as instants. */
export interface AppliedDealFilters {
  stage_ids?: string[];
  pipeline_id?: string;
  contact_id?: string;
  owner_id?: string;
  created_after?: string;
  created_before?: string;
  words?: string[];
}

const isStageId = (stage: string) => stage.startsWith('stg_');

/** The filters the worker takes: those of the REST list, and a pipeline by id or name. */
export type DealListFilters = DealFilters & { pipeline?: string };

/**
 * A stage filter is an id (stg_…) or a name matched without case or spacing in every pipeline
 * (sameName: both sides by Postgres' lower(), as JavaScript's folds İ to two characters); a
 * name is resolved to ids here (an unknown name is a 404 at once), and so is a stage of
 * another pipeline than the one filtered on. An unknown id is said only when nothing
 * matched: see {@link explainEmptyResult}.
 */
export async function applicableDealFilters(db: WorkspaceSql, f: DealListFilters, range: AppliedRange): Promise<AppliedDealFilters> {
  let pipelineId = f.pipeline_id;
  if (f.pipeline !== undefined) {
    const pipeline = await pipelineNamed(db, f.pipeline);
    if (pipelineId !== undefined && pipelineId !== pipeline) throw new NotFoundError('pipeline', f.pipeline, 'pipeline');
    pipelineId = pipeline;
  }
  let stageIds: string[] | undefined;
  if (f.stage !== undefined && isStageId(f.stage)) {
    stageIds = [f.stage];
    // Another pipeline's stage with a pipeline filter matches nothing: said here, for a pipeline given by name too.
    if (pipelineId !== undefined) {
      const stage = await db.selectFrom('stages').select('pipeline_id').where('id', '=', f.stage).executeTakeFirst();
      const refusal = stage && stage.pipeline_id !== pipelineId ? await stageNotInPipeline(db, f.stage, pipelineId, [stage]) : undefined;
      if (refusal) throw refusal;
    }
  } else if (f.stage !== undefined) {
    const name = f.stage;
    const stages = await db
      .selectFrom('stages')
      .select(['id', 'pipeline_id'])
      .where(sameName('name', name))
      .orderBy('id')
      .execute();
    if (stages.length === 0) throw await unknownName(db, 'stage', f.stage);
    if (pipelineId !== undefined && !stages.some((s) => s.pipeline_id === pipelineId)) {
      const refusal = await stageNotInPipeline(db, f.stage, pipelineId, stages);
      // A pipeline_id the workspace does not have: the empty list's check says so (explainEmptyResult).
      if (refusal) throw refusal;
    }
    stageIds = stages.map((s) => s.id);
  }
  return {
    stage_ids: stageIds,
    pipeline_id: pipelineId,
    contact_id: f.contact_id,
    owner_id: f.owner_id,
    created_after: range.created_after ?? undefined,
    created_before: range.created_before ?? undefined,
    words: f.q?.split(/\s+/u).filter(Boolean),
  };
}

/**
 * A stage (a name only other pipelines have, or the id of another pipeline's stage) with a
 * pipeline filter: a 404 naming that pipeline's stages and the pipelines that hold the stage,
 * rather than an empty list that reads as "no deals there" when the stage was looked for in the
 * wrong pipeline. Undefined when the filtered pipeline does not exist.
 */
async function stageNotInPipeline(db: WorkspaceSql, given: string, pipelineId: string, found: readonly { pipeline_id: string }[]): Promise<NotFoundError | undefined> {
  const pipeline = await db.selectFrom('pipelines').select('name').where('id', '=', pipelineId).executeTakeFirst();
  if (!pipeline) return undefined;
  const stages = await db.selectFrom('stages').select('name').where('pipeline_id', '=', pipelineId).where('archived_at', 'is', null).orderBy('position').execute();
  const holders = await db
    .selectFrom('pipelines')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(found.map((s) => s.pipeline_id))])
    .orderBy('name')
    .limit(LISTED_NAMES)
    .execute();
  const valid = stages.map((s) => `"${s.name}"`).join(', ') || 'none';
  const where = holders.map((p) => `"${p.name}" (${p.id})`).join(', ');
  const held = isStageId(given) ? `That stage is in the pipeline ${where}` : `A stage of that name is in the pipeline ${where}`;
  return new NotFoundError(`stage in the pipeline "${pipeline.name}"`, given, 'stage', `Its active stage names: ${valid}. ${held}.`);
}

/**
 * A pipeline by id, or by name without case. Names are unique among active pipelines only, so
 * an active one wins over archived namesakes; archived namesakes alone need the id.
 */
async function pipelineNamed(db: WorkspaceSql, given: string): Promise<string> {
  const pipelines = await db
    .selectFrom('pipelines')
    .select(['id', 'archived_at'])
    .where((eb) => (given.startsWith('pipe_') ? eb('id', '=', given) : sameName('name', given)))
    .orderBy('id')
    .execute();
  const active = pipelines.filter((p) => p.archived_at === null);
  const chosen = active.length === 1 ? active : pipelines;
  if (chosen.length === 1) return chosen[0]!.id;
  if (chosen.length > 1) {
    // Several active ones only where names stored before spacing was folded read as one now.
    const which = active.length > 1 ? `active pipelines are named "${given}" but for spacing or characters that show as nothing (kept from before names were compared without them)` : `archived pipelines are named "${given}"`;
    throw new ValidationError(`pipeline: several ${which}; give the id of one instead (${chosen.map((p) => p.id).join(', ')}).`, 'pipeline');
  }
  throw await unknownName(db, 'pipeline', given);
}

/** Most names a refusal lists; a workspace with more is told where to read them all. */
const LISTED_NAMES = 30;

/**
 * An unknown stage or pipeline: a 404 that lists the active names (a typo is usually one
 * of them), so the caller can correct it without another call.
 */
async function unknownName(db: WorkspaceSql, kind: 'stage' | 'pipeline', given: string): Promise<NotFoundError> {
  const rows = await db
    .selectFrom(kind === 'stage' ? 'stages' : 'pipelines')
    .select('name')
    .distinct()
    .where('archived_at', 'is', null)
    .orderBy('name')
    .limit(LISTED_NAMES + 1)
    .execute();
  const names = rows.slice(0, LISTED_NAMES).map((r) => `"${r.name}"`);
  const more = rows.length > LISTED_NAMES ? ', … (describe_schema or GET /v1/schema lists them all)' : '';
  return new NotFoundError(kind, given, kind, `Active ${kind} names: ${names.join(', ') || 'none'}${more}.`);
}

/**
 * A filter naming a stage, pipeline, contact or member the workspace does not have is a 404, so a
 * typo does not look like an empty list. Only an empty result can hide one, so the checks
 * run then, and a list with rows costs no extra round trip.
 */
export async function explainEmptyResult(db: WorkspaceSql, context: CallContext, f: DealFilters): Promise<void> {
  if (f.stage !== undefined && isStageId(f.stage)) {
    const stage = await db.selectFrom('stages').select('id').where('id', '=', f.stage).executeTakeFirst();
    if (!stage) throw new NotFoundError('stage', f.stage, 'stage');
  }
  if (f.pipeline_id !== undefined) {
    const pipeline = await db.selectFrom('pipelines').select('id').where('id', '=', f.pipeline_id).executeTakeFirst();
    if (!pipeline) {
      // pipeline_id=Sales is a name where an id goes (the REST list has no name filter for pipelines): say so.
      const hint = f.pipeline_id.startsWith('pipe_') ? undefined : 'pipeline_id takes a pipeline id (pipe_…), not a name; GET /v1/pipelines or GET /v1/schema lists them.';
      throw new NotFoundError('pipeline', f.pipeline_id, 'pipeline_id', hint);
    }
  }
  // Only to a caller who may read contacts: to another, the 404 against an empty list would tell which contact ids exist.
  if (f.contact_id !== undefined && grantsScope(context.principal.scopes, 'contacts:read')) await requireVisibleContact(db, context, f.contact_id);
  if (f.owner_id !== undefined) {
    // Owners are members (removing one clears their records' owner), so anyone else is a typo or another workspace's user.
    const member = await db.selectFrom('memberships').select('user_id').where('user_id', '=', f.owner_id).executeTakeFirst();
    if (!member) throw new NotFoundError('workspace member', f.owner_id, 'owner_id');
  }
}

export function whereDealFilters<O>(query: ScopedSelect<'deals', O>, f: AppliedDealFilters): ScopedSelect<'deals', O> {
  let q = query;
  // Each word anywhere in the name, both folded by the same crm_unaccent() (migration 0009); deals are few next to contacts, so no index of their own.
  for (const word of f.words ?? []) q = q.where(sql<boolean>`lower(crm_unaccent(name)) like '%' || ${foldedLikePrefix(word)}`);
  if (f.stage_ids) q = f.stage_ids.length === 1 ? q.where('stage_id', '=', f.stage_ids[0]!) : q.where('stage_id', 'in', f.stage_ids);
  if (f.pipeline_id) q = q.where('pipeline_id', '=', f.pipeline_id);
  if (f.contact_id) q = q.where('contact_id', '=', f.contact_id);
  if (f.owner_id) q = q.where('owner_id', '=', f.owner_id);
  // Half-open: the start is in the range, the end is not.
  if (f.created_after) q = q.where('created_at', '>=', f.created_after);
  if (f.created_before) q = q.where('created_at', '<', f.created_before);
  return q;
}
