import type { Pipeline } from '../../shared/contracts/pipelines.js';
import type { EventRecorder } from '../runtime/events/event-recorder.js';

/**
 * The event of a change to one stage, from its pipeline before and after. Nothing when the
 * stage did not change (archiving an archived stage, renaming to the same name); the
 * other stages that moved up or down are part of the change, not events of their own.
 */
export async function recordStageChange(events: EventRecorder, type: 'stage.updated' | 'stage.archived', stageId: string, before: Pipeline, after: Pipeline): Promise<void> {
  const old = before.stages.find((s) => s.id === stageId);
  const now = after.stages.find((s) => s.id === stageId);
  if (!old || !now) return;
  if (type === 'stage.archived' && old.archived) return;
  await events.record({ type, object: now, previous: old });
}
