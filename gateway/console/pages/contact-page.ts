import type { Contact } from '../../../shared/contracts/contacts.js';
import type { Event } from '../../../shared/contracts/events.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout, may } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import type { FieldLabel } from '../custom-field-labels.js';
import { when } from '../format.js';
import { noticeLine } from '../notice.js';
import { recordFacts } from '../record-facts.js';
import { recordHistory } from '../record-history.js';
import { recordNotesSection, type RecordNotesView } from '../record-notes.js';
import type { RecordPagePosition } from '../record-page-position.js';
import type { RecordValueNames } from '../record-value-names.js';
import { workspacePath } from '../workspace-url.js';

export interface ContactView {
  session: ConsoleSession;
  contact: Contact;
  events: Event[];
  nextCursor: string | null;
  onLaterPage: boolean;
  names: RecordValueNames;
  fieldLabel: FieldLabel;
  notes: Omit<RecordNotesView, 'session' | 'base' | 'position'>;
  /** Where its history and its notes stand (each paged on its own). */
  position: RecordPagePosition;
  notice?: string | undefined;
}

export function contactName(contact: Contact): string {
  return [contact.first_name, contact.last_name].filter(Boolean).join(' ');
}

/** One contact: its fields, its notes, then its own history. */
export function contactPage(view: ContactView): Html {
  const c = view.contact;
  const list = workspacePath(view.session, '/contacts');
  const base = `${list}/${encodeURIComponent(c.id)}`;
  return consoleLayout({
    session: view.session,
    section: 'contacts',
    title: contactName(c),
    body: html`
      ${noticeLine(view.notice)}
      <p><a href="${list}">All contacts</a>${view.notes.mayWrite ? html` · <a href="${base}/edit">Change this contact</a>` : ''}${
        may(view.session, 'deals:write') ? html` · <a href="${workspacePath(view.session, '/deals/new')}?${new URLSearchParams({ contact: c.id }).toString()}">New deal with this contact</a>` : ''
      }</p>
      ${recordFacts(
        [
          ['Id', html`<code>${c.id}</code>`],
          ['E-mail', c.email ?? html`<span class="muted">None</span>`],
          ['Phone', c.phone],
          ['Status', c.status === 'active' ? 'Active' : 'Archived'],
          ['Owner', view.names.ownerName(c.owner_id)],
          ['Created', when(c.created_at, view.session)],
          ['Last changed', when(c.updated_at, view.session)],
        ],
        c.custom_fields,
        view.fieldLabel,
      )}
      ${recordNotesSection({ ...view.notes, session: view.session, base, position: view.position })}
      ${recordHistory({ ...view, base })}`,
  });
}
