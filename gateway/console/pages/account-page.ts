import { PERMISSION_DESCRIPTIONS } from '../../../shared/auth/permissions.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { noticeLine } from '../notice.js';
import { workspaceUrl } from '../workspace-url.js';

export interface AccountView {
  session: ConsoleSession;
  notice?: string;
  error?: string;
}

/** The signed-in user's own page: their workspaces, and their password. */
export function accountPage(view: AccountView): Html {
  const { session } = view;
  return consoleLayout({
    session,
    section: 'account',
    title: 'Your account',
    body: html`
      ${session.passwordChangeRequired ? noticeLine('You signed in with a temporary password. Choose your own to continue.') : ''}
      ${noticeLine(view.notice)}
      <p>Signed in as <strong>${session.user.email}</strong>.</p>
      <h2>Your workspaces</h2>
      ${
        session.memberships.length === 0
          ? html`<p>You are not a member of any workspace. An administrator of a workspace can invite you.</p>`
          : html`<ul>${session.memberships.map(
              (m) => html`<li><a href="${workspaceUrl(m.workspace_id)}">${m.organization_name} / ${m.workspace_name}</a>:
                ${m.permissions.map((p) => PERMISSION_DESCRIPTIONS[p]).join('; ')}</li>`,
            )}</ul>`
      }
      <h2>Change your password</h2>
      ${view.error ? html`<p class="error" role="alert" id="password-error">${view.error}</p>` : ''}
      <form method="post" action="/console/account/password" ${view.error ? html`aria-describedby="password-error"` : ''}>
        <input type="hidden" name="csrf_token" value="${session.csrf}">
        <input type="text" name="username" autocomplete="username" value="${session.user.email}" hidden>
        <label for="current-password">Current password</label>
        <input id="current-password" name="current_password" type="password" autocomplete="current-password" required>
        <label for="new-password">New password</label>
        <input id="new-password" name="new_password" type="password" autocomplete="new-password" minlength="10" required aria-describedby="new-password-help">
        <p id="new-password-help" class="muted">At least 10 characters. Your other sessions end when you change it.</p>
        <label for="repeat-password">New password again</label>
        <input id="repeat-password" name="repeat_password" type="password" autocomplete="new-password" minlength="10" required>
        <div class="actions"><button class="primary" type="submit">Change password</button></div>
      </form>`,
  });
}
