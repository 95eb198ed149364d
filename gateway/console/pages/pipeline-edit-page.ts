import type { Pipeline } from '../../../shared/contracts/pipelines.js';
import type { Html } from '../../pages/html.js';
import type { ConsoleSession } from '../console-session.js';
import { workspacePath } from '../workspace-url.js';
import { renamePage, type RenameRefusal } from './rename-page.js';

/** The rename form's field as the page labels it, also how its refusals name it. */
export const PIPELINE_NAME_LABEL = 'Pipeline name';

export interface PipelineEditView {
  session: ConsoleSession;
  pipeline: Pick<Pipeline, 'id' | 'name'>;
  refusal?: RenameRefusal;
}

/** Renaming a pipeline (administrators), with PATCH /v1/pipelines/{id}'s operation; its stages and deals stay. */
export function pipelineEditPage(view: PipelineEditView): Html {
  return renamePage({
    session: view.session,
    title: `Rename the pipeline ${view.pipeline.name}`,
    action: `${workspacePath(view.session, '/pipelines')}/${encodeURIComponent(view.pipeline.id)}`,
    idPrefix: 'pipeline',
    label: PIPELINE_NAME_LABEL,
    help: 'Unique in the workspace (case and extra spaces ignored: runs of spaces are kept as one). Its stages and deals stay as they are.',
    current: view.pipeline.name,
    refusal: view.refusal,
  });
}
