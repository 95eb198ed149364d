import type { Deal } from '../../shared/contracts/deals.js';
import type { Pipeline } from '../../shared/contracts/pipelines.js';
import { html, type Html } from '../pages/html.js';
import { controlState } from './form-refusal.js';

export interface DealStageFormView {
  csrf: string;
  /** The deal's page: the form posts to `<base>/stage`. */
  base: string;
  deal: Deal;
  /** The deal's pipeline, as the schema read of this request has it. */
  pipeline: Pipeline;
  /** A refused move, said above the list (which is marked). */
  error?: string;
}

/**
 * Moving a deal to another stage of its pipeline, with PATCH /v1/deals/{id}'s operation: the
 * active stages in pipeline order, the current one chosen (also when archived, marked so, since
 * a deal stays in an archived stage until moved).
 */
export function dealStageForm(view: DealStageFormView): Html {
  const stages = view.pipeline.stages.filter((s) => !s.archived || s.id === view.deal.stage_id);
  const refused = { field: view.error ? 'stage_id' : undefined, errorId: 'stage-error' };
  return html`<section aria-labelledby="stage-heading">
    <h2 id="stage-heading">Move to another stage</h2>
    ${view.error ? html`<p class="error" role="alert" id="stage-error">${view.error}</p>` : ''}
    <form method="post" action="${view.base}/stage" class="inline-fields">
      <input type="hidden" name="csrf_token" value="${view.csrf}">
      <input type="hidden" name="read_stage_id" value="${view.deal.stage_id}">
      <label for="stage_id">Stage</label>
      <select id="stage_id" name="stage_id" ${controlState(refused, 'stage_id')}>
        ${stages.map((s) => html`<option value="${s.id}" ${s.id === view.deal.stage_id ? 'selected' : ''}>${s.name}${s.archived ? ' (archived)' : ''}</option>`)}
      </select>
      <button class="secondary" type="submit">Move deal</button>
    </form>
  </section>`;
}
