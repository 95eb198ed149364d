import type { Request } from 'express';
import { listNotes, NOTE_BODY_MAX, type Note } from '../../shared/contracts/notes.js';
import { callWorker } from '../call-worker.js';
import type { GatewayDeps } from '../deps.js';
import { html, type Html } from '../pages/html.js';
import type { ConsoleSession } from './console-session.js';
import { actorCell } from './event-actor-label.js';
import { when, type ShownIn } from './format.js';
import { recordPageHref, recordPagePosition, type RecordPagePosition } from './record-page-position.js';

const NOTES_PAGE = 20;

export interface RecordNotesView {
  session: ConsoleSession;
  /** The record's page: the form posts to `<base>/notes`, "Older notes" leads back here. */
  base: string;
  /** Where the page's history stands: paging the notes keeps it there. */
  position: RecordPagePosition;
  notes: Note[];
  nextCursor: string | null;
  onLaterPage: boolean;
  /** The member may write the record, so may add a note to it. */
  mayWrite: boolean;
  /** A refused note: the message, and the text as typed to fill the form again. */
  error?: string;
  draft?: string;
}

/** One page of a record's notes, newest first; `?notes_cursor=` reads further back (the history has `?cursor=`). */
export async function recordNotes(deps: GatewayDeps, req: Request, parent: { contact_id: string } | { deal_id: string }) {
  const cursor = recordPagePosition(req).notes_cursor;
  const { result } = await callWorker(deps.bus, req, listNotes, { ...parent, order: 'desc', limit: NOTES_PAGE, ...(cursor ? { cursor } : {}) });
  return { notes: result.data, nextCursor: result.next_cursor, onLaterPage: cursor !== undefined };
}

function noteItem(note: Note, shownIn: ShownIn): Html {
  const edited = note.updated_at !== note.created_at ? html` <span class="muted">(edited ${when(note.updated_at, shownIn)})</span>` : '';
  return html`<li class="note">
    <p class="note-meta">${actorCell(note.author)} <span class="muted">·</span> ${when(note.created_at, shownIn)}${edited}</p>
    <div class="note-body">${note.body}</div>
  </li>`;
}

/**
 * The record's notes under its facts, newest first, as written (Markdown shown as its text); a form to add one for members who may write the record.
 * No maxlength: it counts UTF-16 units, so an emoji twice, where the server counts characters (code points) of the
 * trimmed text; the script checks the limit as the server does, and without it the server's refusal keeps the draft.
 * A refusal is tied to the textarea itself (aria-describedby, aria-invalid): a form's own description is not read out when the field is reached.
 */
export function recordNotesSection(view: RecordNotesView): Html {
  const form = view.mayWrite
    ? html`<form method="post" action="${view.base}/notes" class="note-form">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        <label for="note-body">Add a note</label>
        <textarea id="note-body" name="body" rows="4" data-max-characters="${String(NOTE_BODY_MAX)}" required ${view.error ? html`aria-invalid="true" aria-describedby="note-error note-body-help"` : html`aria-describedby="note-body-help"`}>${view.draft ?? ''}</textarea>
        <p id="note-body-help" class="muted">Markdown, up to 10,000 characters. Everyone who can see this record can read it.</p>
        <div class="actions"><button class="primary" type="submit">Add note</button></div>
      </form>`
    : '';
  const history = { cursor: view.position.cursor };
  const older = view.nextCursor ? html`<a href="${recordPageHref(view.base, { ...history, notes_cursor: view.nextCursor }, 'notes')}" rel="next">Older notes</a>` : '';
  const newest = view.onLaterPage ? html`<a href="${recordPageHref(view.base, history, 'notes')}">Newest notes</a>` : '';
  return html`<section aria-labelledby="notes">
    <h2 id="notes">Notes</h2>
    ${view.error ? html`<p class="error" role="alert" id="note-error">${view.error}</p>` : ''}
    ${form}
    ${view.notes.length === 0 ? html`<p>No notes${view.onLaterPage ? ' further back' : ''}.</p>` : html`<ul class="notes">${view.notes.map((note) => noteItem(note, view.session))}</ul>`}
    ${older || newest ? html`<nav class="pager" aria-label="Older and newer notes">${newest}${older}</nav>` : ''}
  </section>`;
}
