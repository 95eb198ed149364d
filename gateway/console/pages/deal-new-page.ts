import type { CustomField } from '../../../shared/contracts/custom-fields.js';
import type { Pipeline } from '../../../shared/contracts/pipelines.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { customFieldInputs, type CustomFieldForm } from '../custom-field-inputs.js';
import { controlState } from '../form-refusal.js';
import { workspacePath } from '../workspace-url.js';

/** The new-deal form as typed (all text, as the form sends it). */
export interface DealNewForm {
  name: string;
  amount: string;
  currency: string;
  stage_id: string;
  /** The contact's e-mail address or id, as typed (or preset from the contact's page). */
  contact: string;
}

/** The form's fields as the page labels them, also how its refusals name them (a pipeline is chosen with its stage). */
export const DEAL_NEW_LABELS = { name: 'Name', amount: 'Amount', currency: 'Currency', stage_id: 'Pipeline and stage', pipeline_id: 'Pipeline and stage', contact: 'Contact', contact_id: 'Contact' };

/** The API's names of fields a control of the form stands for under another name. */
export const CONTROL_OF: Readonly<Record<string, string>> = { pipeline_id: 'stage_id', contact_id: 'contact' };

export interface DealNewView {
  session: ConsoleSession;
  pipelines: Pipeline[];
  form: DealNewForm;
  /** The workspace's active deal custom fields, and what the form shows in them. */
  fields: readonly CustomField[];
  custom: CustomFieldForm;
  /** Sent with the form, so a form sent twice creates one deal. */
  idempotencyKey: string;
  error?: string;
  /** The field the error is about (its API name), marked on the form. */
  errorField?: string | undefined;
  /** Whether the form offers a contact: only to a member who may read contacts. */
  contactChoice: boolean;
  /** The contact a link from its page preset, by name. */
  presetContactName?: string | undefined;
}

/** A pipeline's active stages, as one group of the list: choosing a stage chooses its pipeline (named in each option too, as a closed list shows the option alone). */
function stageGroup(pipeline: Pipeline, chosen: string): Html {
  return html`<optgroup label="${pipeline.name}${pipeline.is_default ? ' (default)' : ''}">
    ${pipeline.stages.filter((s) => !s.archived).map((s) => html`<option value="${s.id}" ${s.id === chosen ? 'selected' : ''}>${pipeline.name}: ${s.name}</option>`)}
  </optgroup>`;
}

/** Whether the stage is one the list offers (an active stage). */
const offered = (pipelines: Pipeline[], stageId: string) => pipelines.some((p) => p.stages.some((s) => s.id === stageId && !s.archived));

/**
 * The deal's contact, typed as their e-mail address or id (a list of every contact would not
 * scale, and a search needs JavaScript): the new and edit forms' picker, read with chosenContactId.
 */
export function dealContactInput(typed: string, help: Html, refused: { field?: string | undefined; errorId: string }): Html {
  return html`<label for="deal-contact">${DEAL_NEW_LABELS.contact}</label>
    <input id="deal-contact" name="contact" type="text" autocomplete="off" value="${typed}" ${controlState(refused, 'contact', 'deal-contact-help')}>
    <p id="deal-contact-help" class="muted">${help}</p>`;
}

/** The new deal's contact: preset by the "New deal" link of a contact's page. */
function contactInput(view: DealNewView, refused: { field?: string | undefined; errorId: string }): Html {
  const help = view.presetContactName
    ? html`${view.presetContactName}, from their page; or another contact's e-mail address or id (con_…). Leave it empty for none.`
    : html`The contact's e-mail address, or the id (con_…) shown on their page; leave it empty for none.`;
  return dealContactInput(view.form.contact, help, refused);
}

/** A new deal with POST /v1/deals' operation: its name, amount and currency, pipeline and stage, contact, and its custom fields. */
export function dealNewPage(view: DealNewView): Html {
  const list = workspacePath(view.session, '/deals');
  const refused = { field: view.errorField === undefined ? undefined : (CONTROL_OF[view.errorField] ?? view.errorField), errorId: 'deal-error' };
  return consoleLayout({
    session: view.session,
    section: 'deals',
    title: 'New deal',
    body: html`
      ${view.error ? html`<p class="error" role="alert" id="deal-error">${view.error}</p>` : ''}
      <form method="post" action="${list}/new">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        <input type="hidden" name="idempotency_key" value="${view.idempotencyKey}" autocomplete="off">
        <label for="deal-name">${DEAL_NEW_LABELS.name}</label>
        <input id="deal-name" name="name" type="text" required autocomplete="off" value="${view.form.name}" ${controlState(refused, 'name')}>
        <label for="deal-amount">${DEAL_NEW_LABELS.amount}</label>
        <input id="deal-amount" name="amount" type="text" inputmode="decimal" autocomplete="off" value="${view.form.amount}" ${controlState(refused, 'amount', 'deal-amount-help')}>
        <p id="deal-amount-help" class="muted">In the currency's own units, e.g. 1250.50 for USD; leave it empty for none.</p>
        <label for="deal-currency">${DEAL_NEW_LABELS.currency}</label>
        <input id="deal-currency" name="currency" type="text" maxlength="3" autocomplete="off" value="${view.form.currency}" ${controlState(refused, 'currency', 'deal-currency-help')}>
        <p id="deal-currency-help" class="muted">An ISO 4217 code such as USD or EUR; needed with an amount.</p>
        <label for="deal-stage">${DEAL_NEW_LABELS.stage_id}</label>
        <select id="deal-stage" name="stage_id" required ${controlState(refused, 'stage_id')}>
          ${
            // A stage archived since the form was read is no longer listed: without this, the browser would choose the first stage of the first pipeline.
            offered(view.pipelines, view.form.stage_id) ? '' : html`<option value="" selected disabled>Choose a stage</option>`
          }
          ${view.pipelines.map((p) => stageGroup(p, view.form.stage_id))}
        </select>
        ${view.contactChoice ? contactInput(view, refused) : ''}
        ${customFieldInputs(view.fields, view.custom, refused)}
        <div class="actions">
          <button class="primary" type="submit">Create deal</button>
          <a class="button-link" href="${list}">Cancel</a>
        </div>
      </form>`,
  });
}
