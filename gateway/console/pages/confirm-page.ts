import { html, type Html } from '../../pages/html.js';
import { consoleLayout, type ConsoleSection } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';

/** "Are you sure?" for an action that cannot be undone: what it does, a red button, and a way back. */
export function confirmPage(options: {
  session: ConsoleSession;
  section: ConsoleSection;
  title: string;
  details: Html;
  /** Choices that go with the action, inside its form (e.g. "also revoke its children"). */
  fields?: Html;
  action: string;
  button: string;
  cancel: string;
}): Html {
  return consoleLayout({
    session: options.session,
    section: options.section,
    title: options.title,
    body: html`
      ${options.details}
      <form method="post" action="${options.action}">
        <input type="hidden" name="csrf_token" value="${options.session.csrf}">
        ${options.fields ?? ''}
        <div class="actions">
          <button class="danger" type="submit">${options.button}</button>
          <a class="button-link" href="${options.cancel}">Cancel</a>
        </div>
      </form>`,
  });
}
