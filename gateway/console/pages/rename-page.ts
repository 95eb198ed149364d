import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { controlState } from '../form-refusal.js';
import { workspacePath } from '../workspace-url.js';

/** A refused rename: what was typed, kept, and why. */
export interface RenameRefusal {
  name: string;
  error: string;
  field?: string | undefined;
}

export interface RenameView {
  session: ConsoleSession;
  title: string;
  /** Where the form posts. */
  action: string;
  /** Prefix of the page's element ids: `stage` gives stage-name, stage-error. */
  idPrefix: string;
  label: string;
  /** Under the field: the rule the name follows and what the rename leaves as it is. */
  help: string;
  current: string;
  refusal?: RenameRefusal | undefined;
}

/** One name to change, on a page of its own under Pipelines (administrators): a pipeline's or a stage's. */
export function renamePage(view: RenameView): Html {
  const list = workspacePath(view.session, '/pipelines');
  const refused = { field: view.refusal?.field, errorId: `${view.idPrefix}-error` };
  return consoleLayout({
    session: view.session,
    section: 'deals',
    title: view.title,
    body: html`
      ${view.refusal ? html`<p class="error" role="alert" id="${view.idPrefix}-error">${view.refusal.error}</p>` : ''}
      <form method="post" action="${view.action}">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        <label for="${view.idPrefix}-name">${view.label}</label>
        <input id="${view.idPrefix}-name" name="name" type="text" required value="${view.refusal?.name ?? view.current}" ${controlState(refused, 'name', `${view.idPrefix}-name-help`)}>
        <p id="${view.idPrefix}-name-help" class="muted">${view.help}</p>
        <div class="actions">
          <button class="primary" type="submit">Save name</button>
          <a class="button-link" href="${list}">Cancel</a>
        </div>
      </form>`,
  });
}
