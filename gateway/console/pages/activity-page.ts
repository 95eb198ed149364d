import { ACTOR_KINDS, EVENT_OBJECTS, type Event, type EventObjectType } from '../../../shared/contracts/events.js';
import { ID_PREFIXES } from '../../../shared/ids.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { ACTOR_KIND_LABELS } from '../event-actor-label.js';
import { EVENT_OBJECT_LABELS } from '../event-record.js';
import { eventTable } from '../event-table.js';
import { historyPager } from '../history-pager.js';
import type { RecordValueNames } from '../record-value-names.js';
import { workspacePath } from '../workspace-url.js';
import { controlState } from '../form-refusal.js';

export interface ActivityView {
  session: ConsoleSession;
  /** The filters as given (object, object_id, actor_kind, actor_id), to fill the form again and to page with. */
  typed: Record<string, string>;
  /** The kinds of record whose changes the member may read: the filter offers only these. */
  objectKinds: EventObjectType[];
  events: Event[];
  nextCursor: string | null;
  onLaterPage: boolean;
  names: RecordValueNames;
  error?: string;
  /** The filter the error is about (its control's name: object, object_id, actor_kind, actor_id), marked on the form. */
  errorField?: string | undefined;
}

function field(id: string, label: string, input: Html): Html {
  return html`<div class="field"><label for="${id}">${label}</label>${input}</div>`;
}

function option(value: string, label: string, chosen: string | undefined): Html {
  return html`<option value="${value}" ${value === chosen ? 'selected' : ''}>${label}</option>`;
}

/** "con_…, deal_… or note_…": the id prefixes of the kinds of record the member may read, each once. */
function idPrefixes(kinds: EventObjectType[]): string {
  const prefixes = [...new Set(kinds.map((kind) => `${ID_PREFIXES[EVENT_OBJECTS[kind].id]}_…`))];
  return prefixes.length > 1 ? `${prefixes.slice(0, -1).join(', ')} or ${prefixes.at(-1)}` : (prefixes[0] ?? '');
}

/** The workspace's change history, newest first, filtered by kind of record, record, kind of actor and actor. */
export function activityPage(view: ActivityView): Html {
  const t = view.typed;
  const base = workspacePath(view.session, '/activity');
  const owned = view.session.membership?.visibility === 'owned';
  const refused = { field: view.errorField, errorId: 'filter-error' };
  return consoleLayout({
    session: view.session,
    section: 'activity',
    title: 'Activity',
    body: html`
      <form method="get" action="${base}" class="filters" role="search" aria-label="Filter the activity">
        ${field(
          'object',
          'Kind of record',
          html`<select id="object" name="object" ${controlState(refused, 'object')}>
            ${option('', 'Any', t.object)}
            ${view.objectKinds.map((kind) => option(kind, EVENT_OBJECT_LABELS[kind], t.object))}
          </select>`,
        )}
        ${field('object_id', 'Record id', html`<input id="object_id" name="object_id" type="text" maxlength="64" value="${t.object_id ?? ''}" ${controlState(refused, 'object_id', 'object-id-help')}>`)}
        ${field(
          'actor_kind',
          'Changed by',
          html`<select id="actor_kind" name="actor_kind" ${controlState(refused, 'actor_kind')}>
            ${option('', 'Anyone', t.actor_kind)}
            ${ACTOR_KINDS.map((kind) => option(kind, ACTOR_KIND_LABELS[kind], t.actor_kind))}
          </select>`,
        )}
        ${field('actor_id', 'Actor id', html`<input id="actor_id" name="actor_id" type="text" maxlength="64" value="${t.actor_id ?? ''}" ${controlState(refused, 'actor_id', 'actor-id-help')}>`)}
        <div class="field actions-inline"><button class="primary" type="submit">Filter</button> <a href="${base}">Clear</a></div>
      </form>
      <p id="object-id-help" class="muted">A record id is its ${idPrefixes(view.objectKinds)} identifier. Times are in ${view.session.timeZone}.</p>
      <p id="actor-id-help" class="muted">An actor id is a token's tok_…, a connected agent's gnt_… or a console user's usr_… identifier; choose who made a change in the list to see all they changed.</p>
      ${owned ? html`<p class="muted">You see changes to the contacts and deals you own.</p>` : ''}
      ${view.error ? html`<p class="error" role="alert" id="filter-error">${view.error}</p>` : ''}
      ${
        view.events.length === 0
          ? view.error
            ? ''
            : html`<p role="status">No changes${view.onLaterPage ? ' further back' : ''}.</p>`
          : eventTable({ session: view.session, events: view.events, names: view.names, showRecord: true, caption: 'Changes, newest first' })
      }
      ${historyPager(base, t, view.nextCursor, view.onLaterPage)}`,
  });
}
