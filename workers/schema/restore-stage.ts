import { MAX_ACTIVE_STAGES } from '../../shared/contracts/pipelines.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { ConflictError } from '../../shared/errors.js';
import { nameTaken } from './name-conflicts.js';
import { activeStages, insertStageAt, shiftStages } from './stage-order.js';

/** An archived stage as the restore reads it, and what the update asks of it. */
export interface StageRestore {
  pipelineId: string;
  stage: { id: string; name: string };
  /** A new name to come back under (default: its own). */
  name?: string | undefined;
  /** Where among the active stages (default last). */
  position?: number | undefined;
}

/**
 * Brings an archived stage back into a locked pipeline's order, as a new stage comes in: at
 * `position` (default last), the stages from there on moving down one, within the most a
 * pipeline may have. Its name is checked against the active stages, which may have taken it
 * while it was archived. Its deals never left it (archiving keeps them), so nothing else moves.
 */
export async function restoreStage(tx: WorkspaceSql, restore: StageRestore): Promise<void> {
  const stages = await activeStages(tx, restore.pipelineId);
  if (stages.length >= MAX_ACTIVE_STAGES) {
    throw new ConflictError(`A pipeline has at most ${MAX_ACTIVE_STAGES} active stages, and this one has ${stages.length}; archive one before restoring "${restore.stage.name}".`);
  }
  const name = restore.name ?? restore.stage.name;
  const taken = await nameTaken(tx, name, { pipelineId: restore.pipelineId });
  if (taken) {
    const holder = stages.find((s) => s.id === taken.details.existing_id);
    const named = restore.name === undefined ? 'under its name' : `as "${name}"`;
    throw new ConflictError(
      `The stage "${restore.stage.name}" cannot be restored ${named}: the active stage "${holder?.name ?? name}" (${taken.details.existing_id ?? ''}) of this pipeline has it. Give it another name with name, or rename that stage first.`,
      'name',
      taken.details.existing_id,
    );
  }
  const { position, shift } = insertStageAt(restore.position, stages.length);
  await shiftStages(tx, restore.pipelineId, shift);
  await tx.updateTable('stages').set({ name, position, archived_at: null, updated_at: new Date() }).where('id', '=', restore.stage.id).execute();
}
