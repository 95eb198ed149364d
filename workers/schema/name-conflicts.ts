import { uniqueViolation } from '../../shared/db/sql.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { hiddenDifference } from '../../shared/contracts/shown-as-nothing.js';
import { ConflictError } from '../../shared/errors.js';
import { sameName } from '../runtime/same-name.js';

/** Turns the name-uniqueness violations of pipelines and stages into 409s naming `name`. */
export function nameConflict(error: unknown, name: string): Error {
  const constraint = uniqueViolation(error);
  if (constraint === 'pipelines_workspace_name_key') return new ConflictError(`A pipeline called "${name}" already exists.`, 'name');
  if (constraint === 'stages_pipeline_name_key') return new ConflictError(`This pipeline already has a stage called "${name}".`, 'name');
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * A 409 naming, in `existing_id`, the active pipeline (or, with `pipelineId`, the active stage
 * of that pipeline) that already has `name` (case, spacing and characters that show as nothing
 * ignored: sameName),
 * other than `except` itself; null when the name is free. Checked before the write, as
 * POST /v1/pipelines does, so a rename or a new stage says which one holds the name; the
 * index still decides a race (then {@link nameConflict}, without the id).
 */
export async function nameTaken(db: WorkspaceSql, name: string, where: { pipelineId?: string; except?: string }): Promise<ConflictError | null> {
  const named = sameName('name', name);
  const holder =
    where.pipelineId === undefined
      ? await db
          .selectFrom('pipelines')
          .select(['id', 'name'])
          .where(named)
          .where('archived_at', 'is', null)
          .$if(where.except !== undefined, (q) => q.where('id', '!=', where.except!))
          .executeTakeFirst()
      : await db
          .selectFrom('stages')
          .select(['id', 'name'])
          .where('pipeline_id', '=', where.pipelineId)
          .where(named)
          .where('archived_at', 'is', null)
          .$if(where.except !== undefined, (q) => q.where('id', '!=', where.except!))
          .executeTakeFirst();
  if (!holder) return null;
  // Named as stored: "Closed Won" may be held by "closed won", by a "Closed  Won" kept from before names were
  // single-spaced, or by a "Closed\u200bWon", whose hidden character the message names, as it shows as nothing.
  const hidden = hiddenDifference(name, holder.name);
  return where.pipelineId === undefined
    ? new ConflictError(`A pipeline called "${holder.name}" already exists: ${holder.id}${hidden}.`, 'name', holder.id)
    : new ConflictError(`This pipeline already has a stage called "${holder.name}": ${holder.id}${hidden}.`, 'name', holder.id);
}
