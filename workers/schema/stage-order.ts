import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../shared/errors.js';

/** Active stages of a locked pipeline, in order. */
export async function activeStages(tx: WorkspaceSql, pipelineId: string) {
  return tx
    .selectFrom('stages')
    .select(['id', 'name', 'position'])
    .where('pipeline_id', '=', pipelineId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .execute();
}

/** The active stages at positions [from, to] move by `delta`; an empty range moves none. */
export interface StageShift {
  from: number;
  to: number;
  delta: 1 | -1;
}

/** A new stage among `count` active ones: at `requested` (default and at most: last); the rest make room. */
export function insertStageAt(requested: number | undefined, count: number): { position: number; shift: StageShift } {
  const position = Math.min(requested ?? count, count);
  return { position, shift: { from: position, to: count - 1, delta: 1 } };
}

/** A stage moved from `current` to `requested` (at most last); the stages in between close up. */
export function moveStageTo(current: number, requested: number, count: number): { position: number; shift: StageShift | null } {
  const position = Math.min(requested, count - 1);
  if (position < current) return { position, shift: { from: position, to: current - 1, delta: 1 } };
  if (position > current) return { position, shift: { from: current + 1, to: position, delta: -1 } };
  return { position, shift: null };
}

/** A stage taken out at `current`: the stages after it move up one. */
export function removeStageAt(current: number, count: number): StageShift {
  return { from: current + 1, to: count - 1, delta: -1 };
}

/** Applies a shift to the pipeline's active stages (positions stay 0..n-1 without gaps). */
export async function shiftStages(tx: WorkspaceSql, pipelineId: string, shift: StageShift | null): Promise<void> {
  if (!shift || shift.from > shift.to) return;
  const { from, to, delta } = shift;
  await tx
    .updateTable('stages')
    .set((eb) => ({ position: eb('position', '+', delta) }))
    .where('pipeline_id', '=', pipelineId)
    .where('archived_at', 'is', null)
    .where('position', '>=', from)
    .where('position', '<=', to)
    .execute();
}

/**
 * A stage not in the pipeline named, and the pipeline it is in if it is in another: with
 * "No such stage" alone, a caller that paired a stage with the wrong pipeline_id (an agent
 * holding two pipelines' ids) would go looking for a stage that exists.
 */
export async function stageNotFound(tx: WorkspaceSql, stageId: string): Promise<NotFoundError> {
  const owner = await tx
    .selectFrom('stages as s')
    .innerJoin(tx.table('pipelines', 'p'), 'p.id', 's.pipeline_id')
    .select(['p.id', 'p.name'])
    .where('s.id', '=', stageId)
    .executeTakeFirst();
  const next = owner ? `It is a stage of the pipeline "${owner.name}" (${owner.id}): give that pipeline_id with it.` : undefined;
  return new NotFoundError('stage in this pipeline', stageId, 'stage_id', next);
}
