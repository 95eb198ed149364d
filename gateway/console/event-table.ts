import type { Event } from '../../shared/contracts/events.js';
import { html, type Html } from '../pages/html.js';
import type { ConsoleSession } from './console-session.js';
import { actorCell } from './event-actor-label.js';
import { eventChanges } from './event-changes.js';
import { eventRecord } from './event-record.js';
import { when } from './format.js';
import type { RecordValueNames } from './record-value-names.js';
import { workspacePath } from './workspace-url.js';

export interface EventTableView {
  session: ConsoleSession;
  events: Event[];
  names: RecordValueNames;
  /** Off on a record's own page, where every row is about that record. */
  showRecord: boolean;
  caption: string;
}

/** Who made the change, linked to the Activity page filtered to everything they changed (the command line and the service have no id). */
function whoCell(view: EventTableView, actor: Event['actor']): Html {
  if (actor.id === null) return actorCell(actor);
  const href = `${workspacePath(view.session, '/activity')}?${new URLSearchParams({ actor_id: actor.id }).toString()}`;
  return html`<a href="${href}">${actorCell(actor)}</a>`;
}

function eventRow(view: EventTableView, event: Event): Html {
  return html`<tr data-event="${event.id}">
    <td>${when(event.created_at, view.session)}</td>
    <td data-column="who">${whoCell(view, event.actor)}</td>
    <td data-column="what"><code>${event.type}</code>${view.showRecord ? html`<br>${eventRecord(view.session, event)}` : ''}</td>
    <td data-column="changes">${eventChanges(event, view.names, view.session)}</td>
  </tr>`;
}

/** Changes newest first: when, who, what, and each changed field old → new. */
export function eventTable(view: EventTableView): Html {
  return html`<div class="table-scroll"><table class="events">
    <caption class="sr-only">${view.caption}</caption>
    <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Changes</th></tr></thead>
    <tbody>${view.events.map((e) => eventRow(view, e))}</tbody>
  </table></div>`;
}
