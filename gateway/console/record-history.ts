import type { Event } from '../../shared/contracts/events.js';
import { html, type Html } from '../pages/html.js';
import type { ConsoleSession } from './console-session.js';
import { eventTable } from './event-table.js';
import { historyPager } from './history-pager.js';
import type { RecordPagePosition } from './record-page-position.js';
import type { RecordValueNames } from './record-value-names.js';

export interface RecordHistoryView {
  session: ConsoleSession;
  /** The record's page, where "Older" leads. */
  base: string;
  /** Where the page's notes stand: paging the history keeps them there. */
  position: RecordPagePosition;
  events: Event[];
  nextCursor: string | null;
  onLaterPage: boolean;
  names: RecordValueNames;
}

/** A record's own changes under its facts: the Activity page's rows, for this record only. */
export function recordHistory(view: RecordHistoryView): Html {
  return html`<section aria-labelledby="history">
    <h2 id="history">History</h2>
    ${
      view.events.length === 0
        ? html`<p>No changes${view.onLaterPage ? ' further back' : ''}.</p>`
        : eventTable({ session: view.session, events: view.events, names: view.names, showRecord: false, caption: 'Changes to this record, newest first' })
    }
    ${historyPager(view.base, view.position.notes_cursor ? { notes_cursor: view.position.notes_cursor } : {}, view.nextCursor, view.onLaterPage, 'Older and newer changes', 'history')}
  </section>`;
}
