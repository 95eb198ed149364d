import type { CustomField } from '../../../shared/contracts/custom-fields.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { customFieldInputs, type CustomFieldForm } from '../custom-field-inputs.js';
import { workspacePath } from '../workspace-url.js';
import { contactFields, type ContactDetails } from './contact-fields.js';

export interface ContactNewView {
  session: ConsoleSession;
  /** What the form shows: empty, or what was typed into a refused form. */
  form: ContactDetails;
  /** The workspace's active contact custom fields, and what the form shows in them. */
  fields: readonly CustomField[];
  custom: CustomFieldForm;
  /** Sent with the form, so a form sent twice (a double click, a reload of the POST) creates one contact. */
  idempotencyKey: string;
  error?: string;
  /** The field the error is about (its API name), marked on the form. */
  errorField?: string | undefined;
  /** On phone_taken: the contact that has the phone, when the member may see it. */
  existingId?: string | undefined;
}

/** A new contact with POST /v1/contacts' operation: its name, e-mail and phone, and its custom fields. */
export function contactNewPage(view: ContactNewView): Html {
  const list = workspacePath(view.session, '/contacts');
  const refused = { field: view.errorField, errorId: 'contact-error' };
  const existing = view.existingId ? html` <a href="${`${list}/${encodeURIComponent(view.existingId)}`}">Open that contact</a>.` : '';
  return consoleLayout({
    session: view.session,
    section: 'contacts',
    title: 'New contact',
    body: html`
      ${view.error ? html`<p class="error" role="alert" id="contact-error">${view.error}${existing}</p>` : ''}
      <form method="post" action="${list}/new">
        <input type="hidden" name="csrf_token" value="${view.session.csrf}">
        <input type="hidden" name="idempotency_key" value="${view.idempotencyKey}" autocomplete="off">
        ${contactFields(view.form, refused)}
        ${customFieldInputs(view.fields, view.custom, refused)}
        <div class="actions">
          <button class="primary" type="submit">Create contact</button>
          <a class="button-link" href="${list}">Cancel</a>
        </div>
      </form>`,
  });
}
