import type { Pipeline, Stage } from '../../../shared/contracts/pipelines.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { controlState } from '../form-refusal.js';
import { workspacePath } from '../workspace-url.js';

/** The rename form's field as the page labels it, also how its refusals name it. */
export const STAGE_NAME_LABEL = 'Name';

export interface StageEditView {
  session: ConsoleSession;
  pipeline: Pick<Pipeline, 'id' | 'name'>;
  stage: Pick<Stage, 'id' | 'name'>;
  /** A refused rename: what was typed, kept, and why. */
  refusal?: { name: string; error: string; field?: string | undefined };
}

/** Renaming one stage of a pipeline (administrators); its deals keep their place. */
export function stageEditPage(view: StageEditView): Html {
  const list = workspacePath(view.session, '/pipelines');
  const action = `${list}/${encodeURIComponent(view.pipeline.id)}/stages/${encodeURIComponent(view.stage.id)}`;
  const refused = { field: view.refusal?.field, errorId: 'stage-error' };
  return consoleLayout({
    session: view.session,
    section: 'deals',
    title: `Rename the stage "${view.stage.name}" of ${view.pipeline.name}`,
    body: html`
      ${view.refusal ? html`<p class="error" role="alert" id="stage-error">${view.refusal.error}</p>` : ''}
      <form method="post" action="${action}">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        <label for="stage-name">${STAGE_NAME_LABEL}</label>
        <input id="stage-name" name="name" type="text" required value="${view.refusal?.name ?? view.stage.name}" ${controlState(refused, 'name', 'stage-name-help')}>
        <p id="stage-name-help" class="muted">Unique within the pipeline (case ignored). Its deals stay in it.</p>
        <div class="actions">
          <button class="primary" type="submit">Save name</button>
          <a class="button-link" href="${list}">Cancel</a>
        </div>
      </form>`,
  });
}
