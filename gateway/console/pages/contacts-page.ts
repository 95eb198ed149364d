import type { Contact } from '../../../shared/contracts/contacts.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout, may } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import type { FieldLabel } from '../custom-field-labels.js';
import { customFieldList } from '../custom-field-list.js';
import { contactName } from './contact-page.js';
import { when } from '../format.js';
import { workspacePath } from '../workspace-url.js';
import { controlState } from '../form-refusal.js';
import { listPager } from '../list-pager.js';

export interface ContactsView {
  session: ConsoleSession;
  /** The filters as typed (dates as YYYY-MM-DD), to fill the form again. */
  typed: Record<string, string>;
  contacts: Contact[];
  total: number | null;
  nextCursor: string | null;
  onLaterPage: boolean;
  ownerName: (ownerId: string | null) => string;
  fieldLabel: FieldLabel;
  error?: string;
  /** The filter the error is about (its name in the query), marked on the form. */
  errorField?: string | undefined;
}

function field(id: string, label: string, input: Html): Html {
  return html`<div class="field"><label for="${id}">${label}</label>${input}</div>`;
}

function contactRow(view: ContactsView, c: Contact): Html {
  return html`<tr>
    <td><strong><a href="${workspacePath(view.session, `/contacts/${encodeURIComponent(c.id)}`)}">${contactName(c)}</a></strong>${customFieldList(c.custom_fields, view.fieldLabel)}</td>
    <td>${c.email ?? ''}</td>
    <td>${c.phone}</td>
    <td>${c.status === 'active' ? 'Active' : 'Archived'}</td>
    <td>${view.ownerName(c.owner_id)}</td>
    <td>${when(c.created_at, view.session)}</td>
  </tr>`;
}

/** A paged list of contacts with the filters of GET /v1/contacts; a link to add one for members who may write contacts. */
export function contactsPage(view: ContactsView): Html {
  const t = view.typed;
  const base = workspacePath(view.session, '/contacts');
  const visibility = view.session.membership?.visibility === 'owned' ? ' that you own' : '';
  const refused = { field: view.errorField, errorId: 'filter-error' };
  return consoleLayout({
    session: view.session,
    section: 'contacts',
    title: 'Contacts',
    body: html`
      ${may(view.session, 'contacts:write') ? html`<p><a class="button-link" href="${base}/new">New contact</a></p>` : ''}
      <form method="get" action="${base}" class="filters" role="search" aria-label="Filter contacts">
        ${field('q', 'Search', html`<input id="q" name="q" type="text" maxlength="100" value="${t.q ?? ''}" ${controlState(refused, 'q', 'q-help')}>`)}
        ${field('email', 'E-mail (exact)', html`<input id="email" name="email" type="text" maxlength="254" value="${t.email ?? ''}" ${controlState(refused, 'email')}>`)}
        ${field('phone', 'Phone', html`<input id="phone" name="phone" type="text" maxlength="40" value="${t.phone ?? ''}" ${controlState(refused, 'phone')}>`)}
        ${field(
          'status',
          'Status',
          html`<select id="status" name="status" ${controlState(refused, 'status')}>
            <option value="">Any</option>
            <option value="active" ${t.status === 'active' ? 'selected' : ''}>Active</option>
            <option value="archived" ${t.status === 'archived' ? 'selected' : ''}>Archived</option>
          </select>`,
        )}
        ${field('created_after', 'Created on or after', html`<input id="created_after" name="created_after" type="date" value="${t.created_after ?? ''}" ${controlState(refused, 'created_after')}>`)}
        ${field('created_before', 'Created before', html`<input id="created_before" name="created_before" type="date" value="${t.created_before ?? ''}" ${controlState(refused, 'created_before')}>`)}
        <div class="field actions-inline"><button class="primary" type="submit">Search</button> <a href="${base}">Clear</a></div>
      </form>
      <p id="q-help" class="muted">Search finds contacts whose first name, last name or e-mail has a word starting with each word you type (case and accents do not matter), or whose phone starts with the digits. Dates are days in the workspace's time zone.</p>
      ${view.error ? html`<p class="error" role="alert" id="filter-error">${view.error}</p>` : ''}
      ${view.total !== null ? html`<p role="status">${view.total === 1 ? '1 contact' : `${view.total} contacts`}${visibility} match.</p>` : ''}
      ${
        view.contacts.length === 0
          ? view.error
            ? ''
            : html`<p>No contacts${view.onLaterPage ? ' on this page' : ''}.</p>`
          : html`<div class="table-scroll"><table>
              <caption class="sr-only">Contacts</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Phone</th><th scope="col">Status</th><th scope="col">Owner</th><th scope="col">Created</th></tr></thead>
              <tbody>${view.contacts.map((c) => contactRow(view, c))}</tbody>
            </table></div>`
      }
      ${listPager({ base, filters: t, nextCursor: view.nextCursor, onLaterPage: view.onLaterPage })}`,
  });
}
