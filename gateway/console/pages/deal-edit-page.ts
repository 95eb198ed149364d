import type { CustomField } from '../../../shared/contracts/custom-fields.js';
import type { Deal } from '../../../shared/contracts/deals.js';
import { html, type Html } from '../../pages/html.js';
import { amountText } from '../amount-field.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { customFieldInputs, originalCustomFieldInputs, type CustomFieldForm } from '../custom-field-inputs.js';
import { controlState } from '../form-refusal.js';
import { workspacePath } from '../workspace-url.js';
import { CONTROL_OF, DEAL_NEW_LABELS, dealContactInput } from './deal-new-page.js';

/** The edit form's fields as typed (all text, as the form sends them). */
export interface DealEditForm {
  name: string;
  amount: string;
  currency: string;
  /** The contact's e-mail address or id; the deal's contact shows as its id. */
  contact: string;
  /** The owner's user id; empty: none. */
  owner: string;
}

export const DEAL_FORM_FIELDS = ['name', 'amount', 'currency', 'contact', 'owner'] as const;

/** The form's fields as the page labels them, also how its refusals name them. */
export const DEAL_EDIT_LABELS = { name: DEAL_NEW_LABELS.name, amount: DEAL_NEW_LABELS.amount, currency: DEAL_NEW_LABELS.currency, contact: DEAL_NEW_LABELS.contact, contact_id: DEAL_NEW_LABELS.contact_id, owner: 'Owner', owner_id: 'Owner' };

/** A deal's values as the form shows them: the amount in the currency's units, no value an empty box. */
export function dealFormOf(deal: Deal): DealEditForm {
  return { name: deal.name, amount: amountText(deal.amount, deal.currency), currency: deal.currency ?? '', contact: deal.contact_id ?? '', owner: deal.owner_id ?? '' };
}

export interface DealEditView {
  session: ConsoleSession;
  deal: Deal;
  /** What the form shows: the deal's values, or what was typed into a refused form. */
  form: DealEditForm;
  /** The values the form was first read with: only fields changed from them are sent, so a change someone made meanwhile to another field stands. */
  original: DealEditForm;
  /** The workspace's active deal custom fields; what the form shows in them, and the values it was read with. */
  fields: readonly CustomField[];
  custom: CustomFieldForm;
  originalCustom: CustomFieldForm;
  /** Whether the form offers the contact: only to a member who may read contacts. */
  contactChoice: boolean;
  /** The deal's contact by name, when the member may read it. */
  contactName: string | null;
  /** The members the deal may be handed to, by name; null (a member who sees only their own records, who cannot hand one on) hides the choice. */
  owners: { id: string; name: string }[] | null;
  error?: string;
  /** The field the error is about (its API name), marked on the form. */
  errorField?: string | undefined;
}

/** The API's names of fields a control of the form stands for under another name. */
const CONTROLS: Readonly<Record<string, string>> = { ...CONTROL_OF, owner_id: 'owner' };

/** The owner as a list of the members; an owner no longer a member stays listed by id, so the form does not change it unasked. */
function ownerChoice(chosen: string, owners: { id: string; name: string }[], refused: { field?: string | undefined; errorId: string }): Html {
  const listed = chosen === '' || owners.some((o) => o.id === chosen) ? owners : [...owners, { id: chosen, name: chosen }];
  return html`<label for="deal-owner">${DEAL_EDIT_LABELS.owner}</label>
    <select id="deal-owner" name="owner" ${controlState(refused, 'owner')}>
      <option value="" ${chosen === '' ? 'selected' : ''}>No owner</option>
      ${listed.map((o) => html`<option value="${o.id}" ${o.id === chosen ? 'selected' : ''}>${o.name}</option>`)}
    </select>`;
}

/** Changing a deal's name, amount and currency, contact, owner and custom fields, with PATCH /v1/deals/{id}'s operation (its stage moves on its page). */
export function dealEditPage(view: DealEditView): Html {
  const page = workspacePath(view.session, `/deals/${encodeURIComponent(view.deal.id)}`);
  const refused = { field: view.errorField === undefined ? undefined : (CONTROLS[view.errorField] ?? view.errorField), errorId: 'deal-error' };
  const contactHelp = view.contactName
    ? html`The deal is with ${view.contactName}. Give another contact's e-mail address or id (con_…), or empty it for none.`
    : html`The contact's e-mail address, or the id (con_…) shown on their page; empty it for none.`;
  return consoleLayout({
    session: view.session,
    section: 'deals',
    title: `Change ${view.deal.name}`,
    body: html`
      ${view.error ? html`<p class="error" role="alert" id="deal-error">${view.error}</p>` : ''}
      <form method="post" action="${page}/edit">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        ${DEAL_FORM_FIELDS.map((field) => html`<input type="hidden" name="original_${field}" value="${view.original[field]}">`)}
        ${originalCustomFieldInputs(view.fields, view.originalCustom)}
        <label for="deal-name">${DEAL_EDIT_LABELS.name}</label>
        <input id="deal-name" name="name" type="text" required autocomplete="off" value="${view.form.name}" ${controlState(refused, 'name')}>
        <label for="deal-amount">${DEAL_EDIT_LABELS.amount}</label>
        <input id="deal-amount" name="amount" type="text" inputmode="decimal" autocomplete="off" value="${view.form.amount}" ${controlState(refused, 'amount', 'deal-amount-help')}>
        <p id="deal-amount-help" class="muted">In the currency's own units, e.g. 1250.50 for USD; empty it for none.</p>
        <label for="deal-currency">${DEAL_EDIT_LABELS.currency}</label>
        <input id="deal-currency" name="currency" type="text" maxlength="3" autocomplete="off" value="${view.form.currency}" ${controlState(refused, 'currency', 'deal-currency-help')}>
        <p id="deal-currency-help" class="muted">An ISO 4217 code such as USD or EUR; needed with an amount.</p>
        ${view.contactChoice ? dealContactInput(view.form.contact, contactHelp, refused) : ''}
        ${view.owners ? ownerChoice(view.form.owner, view.owners, refused) : ''}
        ${customFieldInputs(view.fields, view.custom, refused, view.originalCustom)}
        <div class="actions">
          <button class="primary" type="submit">Save changes</button>
          <a class="button-link" href="${page}">Cancel</a>
        </div>
      </form>`,
  });
}
