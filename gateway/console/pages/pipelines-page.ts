import type { Pipeline } from '../../../shared/contracts/pipelines.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { controlState } from '../form-refusal.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';

/** A refused change to one pipeline: said at that pipeline, with what was typed kept. */
export interface PipelineRefusal {
  pipelineId: string;
  error: string;
  /** The field it is about (name), marked on the pipeline's form. */
  field?: string | undefined;
  name: string;
}

/** The new-pipeline form as typed: stage names one per line, as the textarea holds them. */
export interface NewPipelineForm {
  name: string;
  stages: string;
  is_default: boolean;
}

/** The new-pipeline form's fields as the page labels them, also how its refusals name them. */
export const NEW_PIPELINE_LABELS = { name: 'Pipeline name', stages: 'Stages', is_default: 'Make it the default pipeline' };

export interface PipelinesView {
  session: ConsoleSession;
  pipelines: Pipeline[];
  notice?: string;
  refusal?: PipelineRefusal;
  /** A refused new pipeline: what was typed, kept, and why (the field it is about marked). */
  newPipeline?: { form: NewPipelineForm; error: string; field?: string | undefined };
}

/** The add-stage field's label at a pipeline, also how its refusals name it. */
export function newStageLabel(pipeline: Pick<Pipeline, 'name'>): string {
  return `New stage in ${pipeline.name}`;
}

/** A button that moves a stage to `position` among the active ones: a form, so it works without JavaScript. */
function moveButton(view: PipelinesView, stageUrl: string, position: number, label: string, name: string): Html {
  return html`<form class="inline-form" method="post" action="${stageUrl}/position">
    <input type="hidden" name="csrf_token" value="${view.session.csrf}">
    <input type="hidden" name="position" value="${String(position)}">
    <button class="link" type="submit" aria-label="${name}">${label}</button>
  </form>`;
}

/** Makes a pipeline the default (PATCH /v1/pipelines/{id} with is_default): a form, so it works without JavaScript. */
function makeDefaultButton(view: PipelinesView, pipeline: Pipeline, pipelineUrl: string): Html {
  return html`<form class="inline-form" method="post" action="${pipelineUrl}/default">
    <input type="hidden" name="csrf_token" value="${view.session.csrf}">
    <button class="link" type="submit" aria-label="Make default: ${pipeline.name}">Make default</button>
  </form>`;
}

/** An active stage at `index` of `count`: rename, move up or down (where there is room), archive. */
function stageItem(view: PipelinesView, pipeline: Pipeline, stage: Pipeline['stages'][number], index: number, count: number): Html {
  const stageUrl = workspacePath(view.session, `/pipelines/${encodeURIComponent(pipeline.id)}/stages/${encodeURIComponent(stage.id)}`);
  return html`<li>${stage.name}
    · <a href="${stageUrl}" aria-label="Rename ${stage.name} of ${pipeline.name}">Rename</a>
    ${index > 0 ? html`· ${moveButton(view, stageUrl, index - 1, 'Move up', `Move up ${stage.name} of ${pipeline.name}`)}` : ''}
    ${index < count - 1 ? html`· ${moveButton(view, stageUrl, index + 1, 'Move down', `Move down ${stage.name} of ${pipeline.name}`)}` : ''}
    · <a href="${stageUrl}/archive" aria-label="Archive ${stage.name} of ${pipeline.name}">Archive</a></li>`;
}

/** Brings an archived stage back, last among the active ones (PATCH with archived: false): a form, so it works without JavaScript. */
function restoreButton(view: PipelinesView, pipeline: Pipeline, stage: Pipeline['stages'][number]): Html {
  const stageUrl = workspacePath(view.session, `/pipelines/${encodeURIComponent(pipeline.id)}/stages/${encodeURIComponent(stage.id)}`);
  // On one line: the comma after it follows the button, with no space before it.
  return html`<form class="inline-form" method="post" action="${stageUrl}/restore"><input type="hidden" name="csrf_token" value="${view.session.csrf}"><button class="link" type="submit" aria-label="Restore ${stage.name} of ${pipeline.name}">Restore</button></form>`;
}

function pipelineSection(view: PipelinesView, pipeline: Pipeline): Html {
  const refusal = view.refusal?.pipelineId === pipeline.id ? view.refusal : undefined;
  const pipelineUrl = workspacePath(view.session, `/pipelines/${encodeURIComponent(pipeline.id)}`);
  const ids = { heading: `pipeline-${pipeline.id}`, error: `pipeline-${pipeline.id}-error`, name: `pipeline-${pipeline.id}-stage-name` };
  const refused = { field: refusal?.field, errorId: ids.error };
  // Archived stages have no place in the order any more: named apart from it.
  const archived = pipeline.stages.filter((s) => s.archived);
  const active = pipeline.stages.filter((s) => !s.archived);
  return html`<section aria-labelledby="${ids.heading}">
    <h2 id="${ids.heading}">${pipeline.name}${pipeline.is_default ? html` <span class="muted">(default)</span>` : ''}</h2>
    <div><a href="${pipelineUrl}" aria-label="Rename the pipeline ${pipeline.name}">Rename</a>${pipeline.is_default ? '' : html` · ${makeDefaultButton(view, pipeline, pipelineUrl)}`}</div>
    <ol>${active.map((s, i) => stageItem(view, pipeline, s, i, active.length))}</ol>
    ${archived.length > 0 ? html`<div class="muted">Archived: ${archived.map((s, i) => html`${i > 0 ? ', ' : ''}${s.name} · ${restoreButton(view, pipeline, s)}`)}</div>` : ''}
    ${refusal ? html`<p class="error" role="alert" id="${ids.error}">${refusal.error}</p>` : ''}
    <form method="post" action="${workspacePath(view.session, `/pipelines/${encodeURIComponent(pipeline.id)}/stages`)}" class="inline-fields">
      <input type="hidden" name="csrf_token" value="${view.session.csrf}">
      <label for="${ids.name}">${newStageLabel(pipeline)}</label>
      <input id="${ids.name}" name="name" type="text" required value="${refusal?.name ?? ''}" ${controlState(refused, 'name')}>
      <button class="secondary" type="submit" aria-label="Add stage to ${pipeline.name}">Add stage</button>
    </form>
  </section>`;
}

/** A new pipeline with its first stages (POST /v1/pipelines' operation). */
function newPipelineSection(view: PipelinesView): Html {
  const form = view.newPipeline?.form ?? { name: '', stages: '', is_default: false };
  const refused = { field: view.newPipeline?.field, errorId: 'new-pipeline-error' };
  return html`<section aria-labelledby="new-pipeline-heading">
    <h2 id="new-pipeline-heading">Add a pipeline</h2>
    ${view.newPipeline ? html`<p class="error" role="alert" id="new-pipeline-error">${view.newPipeline.error}</p>` : ''}
    <form method="post" action="${workspacePath(view.session, '/pipelines')}">
      <input type="hidden" name="csrf_token" value="${view.session.csrf}">
      <label for="new-pipeline-name">${NEW_PIPELINE_LABELS.name}</label>
      <input id="new-pipeline-name" name="name" type="text" required value="${form.name}" ${controlState(refused, 'name')}>
      <label for="new-pipeline-stages">${NEW_PIPELINE_LABELS.stages}</label>
      <textarea id="new-pipeline-stages" name="stages" rows="5" ${controlState(refused, 'stages', 'new-pipeline-stages-help')}>${form.stages}</textarea>
      <p id="new-pipeline-stages-help" class="muted">One per line, in order. Left empty: Lead, Qualified, Negotiation, Won, Lost.</p>
      <p><label class="inline"><input type="checkbox" name="is_default" value="yes" ${form.is_default ? 'checked' : ''} ${controlState(refused, 'is_default')}> ${NEW_PIPELINE_LABELS.is_default}: new deals go there when none is named</label></p>
      <div class="actions"><button class="primary" type="submit">Add pipeline</button></div>
    </form>
  </section>`;
}

/** The workspace's pipelines and their stages (administrators): rename a pipeline or make it the default; add a stage at the end, rename or move one, archive one after a confirmation, restore one; add a pipeline. */
export function pipelinesPage(view: PipelinesView): Html {
  return consoleLayout({
    session: view.session,
    section: 'deals',
    title: 'Pipelines and stages',
    body: html`
      ${noticeLine(view.notice)}
      <p class="muted">A new stage comes last; move it up from there. Renaming or moving a stage keeps its deals in it. An archived stage keeps its deals, but no deal can move into it; restored, it comes back last, its deals with it.</p>
      ${view.pipelines.map((p) => pipelineSection(view, p))}
      ${newPipelineSection(view)}
      <p><a href="${workspacePath(view.session, '/deals')}">Back to the deals</a></p>`,
  });
}
