import type { Pipeline } from '../../shared/contracts/pipelines.js';
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
