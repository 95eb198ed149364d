import type { Deal } from '../../../shared/contracts/deals.js';
import type { Pipeline, Stage } from '../../../shared/contracts/pipelines.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout, may } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import type { FieldLabel } from '../custom-field-labels.js';
import { customFieldList } from '../custom-field-list.js';
import { money, when } from '../format.js';
import { workspacePath } from '../workspace-url.js';
import { listPager } from '../list-pager.js';

export interface StageColumn {
  stage: Stage;
  deals: Deal[];
  nextCursor: string | null;
}

export interface DealsView {
  session: ConsoleSession;
  pipelines: Pipeline[];
  pipeline: Pipeline | null;
  columns: StageColumn[];
  /** One stage on its own, paged, instead of the whole board. */
  single: { stage: Stage; onLaterPage: boolean } | null;
  ownerName: (ownerId: string | null) => string;
  fieldLabel: FieldLabel;
}

function dealCard(view: DealsView, deal: Deal): Html {
  return html`<li class="deal">
    <strong><a href="${workspacePath(view.session, `/deals/${encodeURIComponent(deal.id)}`)}">${deal.name}</a></strong>
    ${deal.amount !== null ? html`<span class="amount">${money(deal.amount, deal.currency)}</span>` : ''}
    ${customFieldList(deal.custom_fields, view.fieldLabel)}
    <span class="muted">Created ${when(deal.created_at, view.session)} · ${view.ownerName(deal.owner_id)}${deal.closed_at ? html` · closed ${when(deal.closed_at, view.session)}` : ''}</span>
  </li>`;
}

function column(view: DealsView, base: string, col: StageColumn): Html {
  const pipelineId = view.pipeline?.id ?? '';
  const more = new URLSearchParams({ pipeline: pipelineId, stage: col.stage.id }).toString();
  return html`<section class="stage" aria-labelledby="stage-${col.stage.id}">
    <h2 id="stage-${col.stage.id}">${col.stage.name}${col.stage.archived ? html` <span class="muted">(archived)</span>` : ''}</h2>
    ${col.deals.length === 0 ? html`<p class="muted">No deals${view.single?.onLaterPage ? ' on this page' : ''}.</p>` : html`<ul class="deals">${col.deals.map((d) => dealCard(view, d))}</ul>`}
    ${view.single ? stagePager(view.single.onLaterPage, base, pipelineId, col) : col.nextCursor ? html`<p><a href="${base}?${more}">All deals in ${col.stage.name}</a></p>` : ''}
  </section>`;
}

/** One stage's pages: back to its first page from a later one, and on to the next. */
function stagePager(onLaterPage: boolean, base: string, pipelineId: string, col: StageColumn): Html {
  return listPager({ base, filters: { pipeline: pipelineId, stage: col.stage.id }, nextCursor: col.nextCursor, onLaterPage });
}

/** Deals of one pipeline, grouped by stage in pipeline order; a link to add one for members who may write deals. */
export function dealsPage(view: DealsView): Html {
  const base = workspacePath(view.session, '/deals');
  const pipelineForm =
    view.pipelines.length > 1
      ? html`<form method="get" action="${base}" class="inline-fields">
          <label for="pipeline">Pipeline</label>
          <select id="pipeline" name="pipeline" data-autosubmit>
            ${view.pipelines.map((p) => html`<option value="${p.id}" ${p.id === view.pipeline?.id ? 'selected' : ''}>${p.name}${p.is_default ? ' (default)' : ''}</option>`)}
          </select>
          <button class="secondary" type="submit">Show</button>
        </form>`
      : html``;
  return consoleLayout({
    session: view.session,
    section: 'deals',
    title: view.pipeline ? `Deals in ${view.pipeline.name}` : 'Deals',
    body: html`
      ${pipelineForm}
      ${may(view.session, 'deals:write') && view.pipeline ? html`<p><a class="button-link" href="${base}/new?${new URLSearchParams({ pipeline: view.pipeline.id }).toString()}">New deal</a></p>` : ''}
      ${view.session.isAdministrator ? html`<p><a href="${workspacePath(view.session, '/pipelines')}">Change the pipelines' stages</a></p>` : ''}
      ${view.single ? html`<p><a href="${base}?${new URLSearchParams({ pipeline: view.pipeline?.id ?? '' }).toString()}">Back to every stage</a></p>` : ''}
      ${
        view.pipeline === null
          ? html`<p>This workspace has no pipelines yet.</p>`
          : html`<div class="board ${view.single ? 'single' : ''}">${view.columns.map((c) => column(view, base, c))}</div>`
      }`,
  });
}
