import type { Pipeline } from '../../../shared/contracts/pipelines.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { controlState } from '../form-refusal.js';
import { workspacePath } from '../workspace-url.js';

/** The rename form's field as the page labels it, also how its refusals name it. */
export const PIPELINE_NAME_LABEL = 'Pipeline name';

export interface PipelineEditView {
  session: ConsoleSession;
  pipeline: Pick<Pipeline, 'id' | 'name'>;
  /** A refused rename: what was typed, kept, and why. */
  refusal?: { name: string; error: string; field?: string | undefined };
}

/** Renaming a pipeline (administrators), with PATCH /v1/pipelines/{id}'s operation; its stages and deals stay. */
export function pipelineEditPage(view: PipelineEditView): Html {
  const list = workspacePath(view.session, '/pipelines');
  const refused = { field: view.refusal?.field, errorId: 'pipeline-error' };
  return consoleLayout({
    session: view.session,
    section: 'deals',
    title: `Rename the pipeline ${view.pipeline.name}`,
    body: html`
      ${view.refusal ? html`<p class="error" role="alert" id="pipeline-error">${view.refusal.error}</p>` : ''}
      <form method="post" action="${list}/${encodeURIComponent(view.pipeline.id)}">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        <label for="pipeline-name">${PIPELINE_NAME_LABEL}</label>
        <input id="pipeline-name" name="name" type="text" required value="${view.refusal?.name ?? view.pipeline.name}" ${controlState(refused, 'name', 'pipeline-name-help')}>
        <p id="pipeline-name-help" class="muted">Unique in the workspace (case ignored). Its stages and deals stay as they are.</p>
        <div class="actions">
          <button class="primary" type="submit">Save name</button>
          <a class="button-link" href="${list}">Cancel</a>
        </div>
      </form>`,
  });
}
