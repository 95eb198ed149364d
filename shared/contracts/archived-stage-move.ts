import type { CrmError } from '../errors.js';

/** The worker's refusal of a deal's move into an archived stage (a 400 on stage_id): the stage, and where the API restores it. */
export function archivedStageMoveMessage(stage: { id: string; name: string; pipeline_id: string }): string {
  return `stage_id: the stage "${stage.name}" is archived; deals cannot move into it until it is restored (archived: false, with PATCH /v1/pipelines/${stage.pipeline_id}/stages/${stage.id} or Studio's update_stage); or move the deal to an active stage.`;
}

/** Whether `error` is that refusal: each surface says the restore in its own terms (a CRM connection cannot restore a stage, a console user has a button). */
export function isArchivedStageMove(error: CrmError): boolean {
  return error.code === 'validation_failed' && error.details.reason === 'stage_archived';
}
