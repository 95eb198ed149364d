import { PERMISSION_DESCRIPTIONS, VISIBILITY_DESCRIPTIONS } from '../../../shared/auth/permissions.js';
import { MEMBER_SEARCH_MAX, type MemberRecord } from '../../../shared/contracts/members.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { when } from '../format.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';
import { memberFields, type MemberForm } from './member-fields.js';
import { controlState } from '../form-refusal.js';
import { listPager } from '../list-pager.js';
import { withQuery } from '../list-return.js';

export interface MembersView {
  session: ConsoleSession;
  /** One page of the members, in the order they joined. */
  members: MemberRecord[];
  /** Members of the workspace in all, or those matching the search. */
  total: number;
  /** Part of an e-mail the list is narrowed to; none lists everyone. */
  search?: string | undefined;
  /** A search that was refused: kept in its field with the reason; the list is everyone. */
  searchRefused?: { typed: string; reason: string };
  nextCursor: string | null;
  /** The cursor of this page; none on the first. */
  cursor?: string | undefined;
  notice?: string;
  /** The invitation was refused: said in the invite form, which keeps what was typed. */
  error?: string;
  /** The field the error is about (email), marked on the form. */
  errorField?: string | undefined;
  form?: MemberForm;
  /** A removal was refused (the last administrator): said above the list, not as the invite form's error. */
  removeError?: string;
}

function memberRow(session: ConsoleSession, member: MemberRecord, back: Record<string, string>): Html {
  const base = workspacePath(session, `/members/${member.user_id}`);
  return html`<tr>
    <td>${member.email}${member.user_id === session.user.id ? html` <span class="muted">(you)</span>` : ''}</td>
    <td><ul class="plain">${member.permissions.map((p) => html`<li>${PERMISSION_DESCRIPTIONS[p]}</li>`)}</ul></td>
    <td>${VISIBILITY_DESCRIPTIONS[member.visibility]}</td>
    <td>${when(member.created_at, session)}</td>
    <td><a href="${withQuery(base, back)}" aria-label="Change ${member.email}">Change</a> · <a href="${withQuery(`${base}/remove`, back)}" aria-label="Remove ${member.email}">Remove</a></td>
  </tr>`;
}

export function membersPage(view: MembersView): Html {
  const form = view.form ?? { email: '', permissions: ['contacts.read', 'deals.read'], visibility: 'all' };
  const base = workspacePath(view.session, '/members');
  // The search goes in every link of the list: its cursors continue only that search.
  const filters: Record<string, string> = view.search ? { search: view.search } : {};
  // A row's Change and Remove come back to this page.
  const back: Record<string, string> = { ...filters, ...(view.cursor ? { cursor: view.cursor } : {}) };
  const count = view.total === 1 ? '1 member' : `${view.total} members`;
  return consoleLayout({
    session: view.session,
    section: 'members',
    title: 'Members',
    body: html`
      ${noticeLine(view.notice)}
      ${view.removeError ? html`<p class="error" role="alert" id="remove-error">${view.removeError}</p>` : ''}
      ${view.searchRefused ? html`<p class="error" role="alert" id="member-search-error">${view.searchRefused.reason}</p>` : ''}
      <form method="get" action="${base}" class="filters" role="search" aria-label="Search members">
        <div class="field"><label for="member-search">E-mail contains</label>
          <input id="member-search" name="search" type="text" maxlength="${MEMBER_SEARCH_MAX}" value="${view.searchRefused?.typed ?? view.search ?? ''}"
            ${view.searchRefused ? html`aria-invalid="true" aria-describedby="member-search-error member-search-help" autofocus` : html`aria-describedby="member-search-help"`}></div>
        <div class="field actions-inline"><button type="submit">Search</button>${view.search ? html` <a href="${base}">Show all members</a>` : ''}</div>
      </form>
      <p id="member-search-help" class="muted">Finds members whose e-mail has the text anywhere in it, such as part of a name or <code>@example.com</code>; case does not matter.</p>
      <p role="status">${view.search ? `${count} ${view.total === 1 ? 'matches' : 'match'} “${view.search}”` : count}, in the order they joined.</p>
      ${
        view.members.length === 0
          ? html`<p>${view.search && view.cursor === undefined ? 'No member’s e-mail contains that.' : 'No members on this page.'}</p>`
          : html`<div class="table-scroll"><table>
              <caption class="sr-only">Members of this workspace</caption>
              <thead><tr><th scope="col">E-mail</th><th scope="col">Permissions</th><th scope="col">Sees</th><th scope="col">Member since</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>${view.members.map((m) => memberRow(view.session, m, back))}</tbody>
            </table></div>`
      }
      ${listPager({ base, filters, nextCursor: view.nextCursor, onLaterPage: view.cursor !== undefined, next: 'More members' })}

      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite a member</h2>
        <p class="muted">Someone new gets a temporary password, shown to you once, to pass on; they choose their own when they first sign in.
          Someone who already has an account signs in with theirs.</p>
        ${view.error ? html`<p class="error" role="alert" id="invite-error">${view.error}</p>` : ''}
        <form method="post" action="${withQuery(base, filters)}" ${view.error ? html`aria-describedby="invite-error"` : ''}>
          <input type="hidden" name="csrf_token" value="${view.session.csrf}">
          <label for="invite-email">E-mail</label>
          <input id="invite-email" name="email" type="email" maxlength="254" required value="${form.email}" autocomplete="off" ${controlState({ field: view.errorField, errorId: 'invite-error' }, 'email')}>
          ${memberFields(form, 'invite', { field: view.errorField, errorId: 'invite-error' })}
          <div class="actions"><button class="primary" type="submit">Invite member</button></div>
        </form>
      </section>`,
  });
}
