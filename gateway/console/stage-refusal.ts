import type { Pipeline } from '../../shared/contracts/pipelines.js';
import { isArchivedStageMove } from '../../shared/contracts/archived-stage-move.js';
import type { CrmError } from '../../shared/errors.js';

/**
 * A stage refusal in the console's words. The worker's message tells an API caller what to
 * send (`name`, `archived: false`), which a console user cannot: its buttons are the way
 * here. Anything else is shown as the worker said it.
 */
export function stageRefusalInConsole(error: CrmError, pipeline: Pipeline | undefined, stageId: string): string {
  const stage = pipeline?.stages.find((s) => s.id === stageId);
  if (error.code !== 'conflict' || !stage) return error.message;
  if (error.details.param === 'name' && stage.archived) {
    const holder = pipeline?.stages.find((s) => s.id === error.details.existing_id);
    if (holder) return `"${stage.name}" cannot be restored: the active stage "${holder.name}" of this pipeline has its name. Rename "${holder.name}" first, then restore "${stage.name}".`;
  }
  if (error.details.param === 'stage_id' && stage.archived) {
    return `The stage "${stage.name}" is archived (someone archived it meanwhile): restore it with its Restore button on the pipelines page first. Nothing was changed.`;
  }
  return error.message;
}

/**
 * A deal's move into a stage archived since the page was read, in the console's words: the
 * worker's names the API's restore (PATCH … archived: false, Studio's update_stage), which a
 * console user does with a button, and only an administrator may.
 */
export function archivedStageMoveInConsole(error: CrmError, stageLabel: string, isAdministrator: boolean): string | undefined {
  if (!isArchivedStageMove(error)) return undefined;
  const name = /the stage "(.*)" is archived/u.exec(error.message)?.[1];
  const stage = name === undefined ? 'The stage' : `the stage "${name}"`;
  // The pipelines page is an administrator's: one who is gets told to use it, anyone else whom to ask.
  const restore = isAdministrator ? 'restore it with its Restore button on the pipelines page' : 'an administrator can restore it with its Restore button on the pipelines page';
  return `${stageLabel}: ${stage} is archived, so no deal can move into it; ${restore}. Nothing was changed.`;
}
