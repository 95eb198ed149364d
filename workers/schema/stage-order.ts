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

/** Moves the stages whose position lies in [from, to] by `delta` (+1 or -1). */
export async function shiftStages(tx: WorkspaceSql, pipelineId: string, from: number, to: number, delta: 1 | -1): Promise<void> {
  if (from > to) return;
  await tx
    .updateTable('stages')
    .set((eb) => ({ position: eb('position', '+', delta) }))
    .where('pipeline_id', '=', pipelineId)
    .where('archived_at', 'is', null)
    .where('position', '>=', from)
    .where('position', '<=', to)
    .execute();
}

export function stageNotFound(stageId: string): NotFoundError {
  return new NotFoundError('stage in this pipeline', stageId, 'stage_id');
}
