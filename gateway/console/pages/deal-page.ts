import type { Deal } from '../../../shared/contracts/deals.js';
import type { Pipeline } from '../../../shared/contracts/pipelines.js';
import type { Event } from '../../../shared/contracts/events.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import type { FieldLabel } from '../custom-field-labels.js';
import { dealStageForm } from '../deal-stage-form.js';
import { money, when } from '../format.js';
import { noticeLine } from '../notice.js';
import { recordFacts } from '../record-facts.js';
import { recordHistory } from '../record-history.js';
import { recordNotesSection, type RecordNotesView } from '../record-notes.js';
import type { RecordPagePosition } from '../record-page-position.js';
import type { RecordValueNames } from '../record-value-names.js';
import { workspacePath } from '../workspace-url.js';

export interface DealView {
  session: ConsoleSession;
  deal: Deal;
  /** The deal's contact by name when the member may read it; null shows the id alone. */
  contactName: string | null;
  events: Event[];
  nextCursor: string | null;
  onLaterPage: boolean;
  names: RecordValueNames;
  fieldLabel: FieldLabel;
  notes: Omit<RecordNotesView, 'session' | 'base' | 'position'>;
  /** Where its history and its notes stand (each paged on its own). */
  position: RecordPagePosition;
  /** The deal's pipeline when the member may move the deal (deals.write); null hides the stage form. */
  movableIn: Pipeline | null;
  /** A refused move: its reason, shown with the stage form. */
  stageError?: string;
  notice?: string;
}

function contactFact(view: DealView): Html | string {
  const id = view.deal.contact_id;
  if (id === null) return html`<span class="muted">None</span>`;
  if (view.contactName === null) return html`<code>${id}</code>`;
  return html`<a href="${workspacePath(view.session, `/contacts/${encodeURIComponent(id)}`)}">${view.contactName}</a>`;
}

/** One deal: its fields, its notes, then its own history. */
export function dealPage(view: DealView): Html {
  const d = view.deal;
  const list = workspacePath(view.session, '/deals');
  const base = `${list}/${encodeURIComponent(d.id)}`;
  return consoleLayout({
    session: view.session,
    section: 'deals',
    title: d.name,
    body: html`
      ${noticeLine(view.notice)}
      <p><a href="${list}?${new URLSearchParams({ pipeline: d.pipeline_id }).toString()}">All deals in ${view.names.pipelineName(d.pipeline_id)}</a>${view.notes.mayWrite ? html` · <a href="${base}/edit">Change this deal</a>` : ''}</p>
      ${recordFacts(
        [
          ['Id', html`<code>${d.id}</code>`],
          ['Amount', d.amount === null ? html`<span class="muted">None</span>` : money(d.amount, d.currency)],
          ['Pipeline', view.names.pipelineName(d.pipeline_id)],
          ['Stage', view.names.stageName(d.stage_id)],
          ['Contact', contactFact(view)],
          ['Owner', view.names.ownerName(d.owner_id)],
          ['Closed', when(d.closed_at, view.session, 'Open')],
          ['Created', when(d.created_at, view.session)],
          ['Last changed', when(d.updated_at, view.session)],
        ],
        d.custom_fields,
        view.fieldLabel,
      )}
      ${view.movableIn ? dealStageForm({ csrf: view.session.csrf, base, deal: d, pipeline: view.movableIn, ...(view.stageError ? { error: view.stageError } : {}) }) : ''}
      ${recordNotesSection({ ...view.notes, session: view.session, base, position: view.position })}
      ${recordHistory({ ...view, base })}`,
  });
}
