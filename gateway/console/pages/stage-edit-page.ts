import type { Pipeline, Stage } from '../../../shared/contracts/pipelines.js';
import type { Html } from '../../pages/html.js';
import type { ConsoleSession } from '../console-session.js';
import { workspacePath } from '../workspace-url.js';
import { renamePage, type RenameRefusal } from './rename-page.js';

/** The rename form's field as the page labels it, also how its refusals name it. */
export const STAGE_NAME_LABEL = 'Name';

export interface StageEditView {
  session: ConsoleSession;
  pipeline: Pick<Pipeline, 'id' | 'name'>;
  stage: Pick<Stage, 'id' | 'name'>;
  refusal?: RenameRefusal;
}

/** Renaming one stage of a pipeline (administrators); its deals keep their place. */
export function stageEditPage(view: StageEditView): Html {
  return renamePage({
    session: view.session,
    title: `Rename the stage "${view.stage.name}" of ${view.pipeline.name}`,
    action: `${workspacePath(view.session, '/pipelines')}/${encodeURIComponent(view.pipeline.id)}/stages/${encodeURIComponent(view.stage.id)}`,
    idPrefix: 'stage',
    label: STAGE_NAME_LABEL,
    help: 'Unique within the pipeline (case and extra spaces ignored: runs of spaces are kept as one). Its deals stay in it.',
    current: view.stage.name,
    refusal: view.refusal,
  });
}
