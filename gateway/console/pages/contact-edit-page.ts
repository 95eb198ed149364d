import type { Contact } from '../../../shared/contracts/contacts.js';
import type { CustomField } from '../../../shared/contracts/custom-fields.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { customFieldInputs, originalCustomFieldInputs, type CustomFieldForm } from '../custom-field-inputs.js';
import { controlState } from '../form-refusal.js';
import { workspacePath } from '../workspace-url.js';
import { contactFields, type ContactDetails } from './contact-fields.js';
import { contactName } from './contact-page.js';

/** The edit form's fields as typed (all text, as the form sends them). */
export interface ContactForm extends ContactDetails {
  status: string;
}

export const CONTACT_FORM_FIELDS = ['first_name', 'last_name', 'email', 'phone', 'status'] as const;

/** A contact's values as the form shows them: no value is an empty box. */
export function contactFormOf(contact: Contact): ContactForm {
  return { first_name: contact.first_name, last_name: contact.last_name ?? '', email: contact.email ?? '', phone: contact.phone, status: contact.status };
}

export interface ContactEditView {
  session: ConsoleSession;
  contact: Contact;
  /** What the form shows: the contact's values, or what was typed into a refused form. */
  form: ContactForm;
  /** The values the form was first read with: only fields changed from them are sent, so a change someone made meanwhile to another field stands. */
  original: ContactForm;
  /** The workspace's active contact custom fields; what the form shows in them, and the values it was read with (sent alike). */
  fields: readonly CustomField[];
  custom: CustomFieldForm;
  originalCustom: CustomFieldForm;
  error?: string;
  /** The field the error is about (its API name), marked on the form. */
  errorField?: string | undefined;
  /** On phone_taken: the contact that has the phone, when the member may see it. */
  existingId?: string | undefined;
}

/** Changing a contact's name, e-mail, phone, status and custom fields, with PATCH /v1/contacts/{id}'s operation. */
export function contactEditPage(view: ContactEditView): Html {
  const page = workspacePath(view.session, `/contacts/${encodeURIComponent(view.contact.id)}`);
  const refused = { field: view.errorField, errorId: 'contact-error' };
  const existing = view.existingId ? html` <a href="${workspacePath(view.session, `/contacts/${encodeURIComponent(view.existingId)}`)}">Open that contact</a>.` : '';
  return consoleLayout({
    session: view.session,
    section: 'contacts',
    title: `Change ${contactName(view.contact)}`,
    body: html`
      ${view.error ? html`<p class="error" role="alert" id="contact-error">${view.error}${existing}</p>` : ''}
      <form method="post" action="${page}/edit">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        ${CONTACT_FORM_FIELDS.map((field) => html`<input type="hidden" name="original_${field}" value="${view.original[field]}">`)}
        ${originalCustomFieldInputs(view.fields, view.originalCustom)}
        ${contactFields(view.form, refused)}
        <label for="contact-status">Status</label>
        <select id="contact-status" name="status" ${controlState(refused, 'status')}>
          <option value="active" ${view.form.status === 'active' ? 'selected' : ''}>Active</option>
          <option value="archived" ${view.form.status === 'archived' ? 'selected' : ''}>Archived</option>
        </select>
        ${customFieldInputs(view.fields, view.custom, refused, view.originalCustom)}
        <div class="actions">
          <button class="primary" type="submit">Save changes</button>
          <a class="button-link" href="${page}">Cancel</a>
        </div>
      </form>`,
  });
}
