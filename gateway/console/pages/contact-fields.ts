import type { Request } from 'express';
import { html, type Html } from '../../pages/html.js';
import { textField } from '../form-fields.js';
import { controlState } from '../form-refusal.js';

/** A contact's own fields as the new and edit forms type them (all text, as the form sends them). */
export interface ContactDetails {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
}

/** The fields as the forms label them, also how their refusals name them. */
export const CONTACT_FIELD_LABELS = { first_name: 'First name', last_name: 'Last name', email: 'E-mail', phone: 'Phone' } as const;

/** The fields as posted (`prefix` for the edit form's original values). */
export function contactDetailsOf(req: Request, prefix = ''): ContactDetails {
  return {
    first_name: textField(req, `${prefix}first_name`, 1000),
    last_name: textField(req, `${prefix}last_name`, 1000),
    email: textField(req, `${prefix}email`, 1000),
    phone: textField(req, `${prefix}phone`, 200),
  };
}

function textInput(details: ContactDetails, refused: { field?: string | undefined; errorId: string }, name: keyof ContactDetails, attributes: Html, helpId?: string): Html {
  return html`<label for="contact-${name}">${CONTACT_FIELD_LABELS[name]}</label>
    <input id="contact-${name}" name="${name}" value="${details[name]}" ${attributes} ${controlState(refused, name, helpId)}>`;
}

/**
 * The name, e-mail and phone inputs of the new and edit forms: the refused one marked and
 * described by the refusal (`errorId`). The e-mail is text, not type=email: the API keeps
 * addresses (an accented local part) that the browser's own check refuses.
 */
export function contactFields(details: ContactDetails, refused: { field?: string | undefined; errorId: string }): Html {
  return html`${textInput(details, refused, 'first_name', html`type="text" required autocomplete="off"`)}
    ${textInput(details, refused, 'last_name', html`type="text" autocomplete="off"`)}
    ${textInput(details, refused, 'email', html`type="text" inputmode="email" autocomplete="off"`)}
    ${textInput(details, refused, 'phone', html`type="tel" required autocomplete="off"`, 'contact-phone-help')}
    <p id="contact-phone-help" class="muted">Any common format; without a country code, the workspace's default country applies. Stored as +country code and digits.</p>`;
}
