import type { CrmError } from '../errors.js';

/**
 * The words of a deal's move into an archived stage, as the deals worker refuses it: each surface
 * recognises them to say the restore in its own terms (a CRM connection cannot restore a stage,
 * a console user has a button, not an API call).
 */
const ARCHIVED_STAGE_MOVE = 'is archived; deals cannot move into it until it is restored';

/** The worker's refusal (a 400 on stage_id): the stage, and where the API restores it. */
export function archivedStageMoveMessage(stage: { id: string; name: string; pipeline_id: string }): string {
  return `stage_id: the stage "${stage.name}" ${ARCHIVED_STAGE_MOVE} (archived: false, with PATCH /v1/pipelines/${stage.pipeline_id}/stages/${stage.id} or Studio's update_stage); or move the deal to an active stage.`;
}

/** Whether `error` is that refusal. */
export function isArchivedStageMove(error: CrmError): boolean {
  return error.code === 'validation_failed' && error.details.param === 'stage_id' && error.message.includes(ARCHIVED_STAGE_MOVE);
}
