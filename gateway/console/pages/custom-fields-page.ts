import type { CustomField } from '../../../shared/contracts/custom-fields.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { controlState } from '../form-refusal.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';
import { listPager } from '../list-pager.js';

/** The create form as typed: options one per line, as the textarea holds them. */
export interface CustomFieldForm {
  object_type: string;
  key: string;
  label: string;
  type: string;
  options: string;
  required: boolean;
}

export interface CustomFieldsView {
  session: ConsoleSession;
  fields: CustomField[];
  nextCursor: string | null;
  onLaterPage: boolean;
  notice?: string;
  error?: string;
  /** The field the error is about (its API name), marked on the form. */
  errorField?: string | undefined;
  form?: CustomFieldForm;
}

/** The kinds of record and the types as the console names them. */
export const RECORDS: Record<CustomField['object_type'], string> = { contact: 'Contacts', deal: 'Deals' };
export const TYPES: Record<CustomField['type'], string> = { text: 'Text', number: 'Number', boolean: 'Yes or no', date: 'Date', select: 'Choice from a list' };

function fieldRow(view: CustomFieldsView, field: CustomField): Html {
  const base = workspacePath(view.session, `/fields/${encodeURIComponent(field.id)}`);
  const action = field.archived
    ? html`Archived · <form class="inline-form" method="post" action="${base}/restore"><input type="hidden" name="csrf_token" value="${view.session.csrf}"><button class="link" type="submit" aria-label="Restore ${field.label}">Restore</button></form>`
    : html`<a href="${base}" aria-label="Change ${field.label}">Change</a> · <a href="${base}/archive" aria-label="Archive ${field.label}">Archive</a>`;
  return html`<tr>
    <td>${field.label}</td>
    <td><code>${field.key}</code></td>
    <td>${RECORDS[field.object_type]}</td>
    <td>${TYPES[field.type]}${field.options ? html`<ul class="plain">${field.options.map((o) => html`<li>${o}</li>`)}</ul>` : ''}</td>
    <td>${field.required ? 'Required' : 'Optional'}</td>
    <td>${action}</td>
  </tr>`;
}

/** The workspace's custom fields of contacts and deals (administrators): list, add, change, archive, restore. */
export function customFieldsPage(view: CustomFieldsView): Html {
  const form = view.form ?? { object_type: 'contact', key: '', label: '', type: 'text', options: '', required: false };
  const base = workspacePath(view.session, '/fields');
  const refused = { field: view.errorField, errorId: 'field-error' };
  const choice = (value: string, label: string, chosen: string) => html`<option value="${value}" ${value === chosen ? 'selected' : ''}>${label}</option>`;
  return consoleLayout({
    session: view.session,
    section: 'overview',
    title: 'Custom fields',
    body: html`
      ${noticeLine(view.notice)}
      ${
        view.fields.length === 0
          ? html`<p>${view.onLaterPage ? 'No custom fields on this page.' : 'No custom fields yet.'}</p>`
          : html`<div class="table-scroll"><table>
              <caption class="sr-only">Custom fields</caption>
              <thead><tr><th scope="col">Label</th><th scope="col">Key</th><th scope="col">Kind of record</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>${view.fields.map((f) => fieldRow(view, f))}</tbody>
            </table></div>`
      }
      ${listPager({ base, nextCursor: view.nextCursor, onLaterPage: view.onLaterPage, next: 'More fields' })}
      <section aria-labelledby="add-field-heading">
        <h2 id="add-field-heading">Add a custom field</h2>
        ${view.error ? html`<p class="error" role="alert" id="field-error">${view.error}</p>` : ''}
        <form method="post" action="${base}">
          <input type="hidden" name="csrf_token" value="${view.session.csrf}">
          <label for="field-object">Kind of record</label>
          <select id="field-object" name="object_type" ${controlState(refused, 'object_type')}>${Object.entries(RECORDS).map(([v, l]) => choice(v, l, form.object_type))}</select>
          <label for="field-label">Label</label>
          <input id="field-label" name="label" type="text" required value="${form.label}" ${controlState(refused, 'label')}>
          <label for="field-key">Key</label>
          <input id="field-key" name="key" type="text" required value="${form.key}" autocomplete="off" ${controlState(refused, 'key', 'field-key-help')}>
          <p id="field-key-help" class="muted">The name in the API's custom_fields, e.g. lead_source: lower case letters, digits and _, starting with a letter. It cannot be changed later.</p>
          <label for="field-type">Type</label>
          <select id="field-type" name="type" ${controlState(refused, 'type')}>${Object.entries(TYPES).map(([v, l]) => choice(v, l, form.type))}</select>
          <label for="field-options">Options (choice from a list only)</label>
          <textarea id="field-options" name="options" rows="4" ${controlState(refused, 'options', 'field-options-help')}>${form.options}</textarea>
          <p id="field-options-help" class="muted">One per line.</p>
          <p><label class="inline"><input type="checkbox" name="required" value="yes" ${form.required ? 'checked' : ''}> Required: a record must have a value</label></p>
          <div class="actions"><button class="primary" type="submit">Add field</button></div>
        </form>
      </section>`,
  });
}
