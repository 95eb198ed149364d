import type { CustomField } from '../../../shared/contracts/custom-fields.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { controlState } from '../form-refusal.js';
import { workspacePath } from '../workspace-url.js';
import { RECORDS, TYPES } from './custom-fields-page.js';

/** The change form's fields as the page labels them, also how its refusals name them. */
export const FIELD_CHANGE_LABELS = { label: 'Label', options: 'Options', required: 'Required' };

/** The change form as typed: options one per line, as the textarea holds them. */
export interface CustomFieldChangeForm {
  label: string;
  options: string;
  required: boolean;
}

export interface CustomFieldEditView {
  session: ConsoleSession;
  field: CustomField;
  /** A refused change: what was typed, kept, and why (the field it is about marked). */
  refusal?: { form: CustomFieldChangeForm; error: string; field?: string | undefined };
}

/** Changing a custom field's label, options (a choice from a list) and whether it is required; its key and type stay. */
export function customFieldEditPage(view: CustomFieldEditView): Html {
  const { field } = view;
  const form = view.refusal?.form ?? { label: field.label, options: (field.options ?? []).join('\n'), required: field.required };
  const list = workspacePath(view.session, '/fields');
  const refused = { field: view.refusal?.field, errorId: 'field-change-error' };
  return consoleLayout({
    session: view.session,
    section: 'overview',
    title: `Change the field "${field.label}"`,
    body: html`
      <p><code>${field.key}</code> · ${RECORDS[field.object_type]} · ${TYPES[field.type]}${field.archived ? ' · Archived' : ''}</p>
      <p class="muted">The key and the type cannot change: the values records hold keep their meaning.</p>
      ${view.refusal ? html`<p class="error" role="alert" id="field-change-error">${view.refusal.error}</p>` : ''}
      <form method="post" action="${list}/${encodeURIComponent(field.id)}">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        <label for="field-change-label">${FIELD_CHANGE_LABELS.label}</label>
        <input id="field-change-label" name="label" type="text" required value="${form.label}" ${controlState(refused, 'label')}>
        ${
          field.type === 'select'
            ? html`<label for="field-change-options">${FIELD_CHANGE_LABELS.options}</label>
              <textarea id="field-change-options" name="options" rows="6" ${controlState(refused, 'options', 'field-change-options-help')}>${form.options}</textarea>
              <p id="field-change-options-help" class="muted">One per line: the whole list. An option records still hold cannot be left out.</p>`
            : ''
        }
        <p><label class="inline"><input type="checkbox" name="required" value="yes" ${form.required ? 'checked' : ''} ${controlState(refused, 'required')}> ${FIELD_CHANGE_LABELS.required}: a record must have a value</label></p>
        <div class="actions">
          <button class="primary" type="submit">Save changes</button>
          <a class="button-link" href="${list}">Cancel</a>
        </div>
      </form>`,
  });
}
