import type { MemberRecord } from '../../../shared/contracts/members.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { withQuery } from '../list-return.js';
import { workspacePath } from '../workspace-url.js';
import type { MemberForm } from './member-fields.js';
import { memberFields } from './member-fields.js';

export function memberEditPage(session: ConsoleSession, member: MemberRecord, options: { error?: string; errorField?: string | undefined; form?: MemberForm; back?: Record<string, string> } = {}): Html {
  const form = options.form ?? { email: member.email, permissions: member.permissions, visibility: member.visibility };
  const list = workspacePath(session, '/members');
  // The page of the list this came from, where saving or cancelling returns.
  const back = options.back ?? {};
  return consoleLayout({
    session,
    section: 'members',
    title: `Change ${member.email}`,
    body: html`
      ${options.error ? html`<p class="error" role="alert" id="member-error">${options.error}</p>` : ''}
      <form method="post" action="${withQuery(`${list}/${member.user_id}`, back)}" ${options.error ? html`aria-describedby="member-error"` : ''}>
        <input type="hidden" name="csrf_token" value="${session.csrf}">
        ${memberFields(form, 'member', { field: options.errorField, errorId: 'member-error' })}
        <p class="muted">Their connected agents follow the new permissions within seconds; nothing they were granted grows beyond what they approved.</p>
        <div class="actions">
          <button class="primary" type="submit">Save changes</button>
          <a class="button-link" href="${withQuery(list, back)}">Cancel</a>
        </div>
      </form>`,
  });
}
