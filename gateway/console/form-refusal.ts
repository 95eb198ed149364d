import type { CrmError } from '../../shared/errors.js';
import { html, type Html } from '../pages/html.js';

/**
 * A refusal as a console form says it: the field named by its label on the form ("Expires on:
 * must be in the future"), where the message names the API's field (`expires_at: …`), a name
 * the page shows nowhere. A field of the list's items (`scopes.0`) is named by its list's label.
 */
export function refusalMessage(error: Pick<CrmError, 'message' | 'details'>, labels: Readonly<Record<string, string>>): string {
  const param = error.details.param;
  if (param === undefined || !error.message.startsWith(`${param}: `)) return error.message;
  const field = refusedField(error, labels);
  if (field === undefined) return error.message;
  return `${labels[field]}: ${error.message.slice(param.length + 2)}`;
}

/**
 * The form field a refusal is about (the API's name of it, as `labels` has it); none when it names
 * no field of the form. A whole name (`custom_fields.tier`, a control of its own) before its first part.
 */
export function refusedField(error: Pick<CrmError, 'details'>, labels: Readonly<Record<string, string>>): string | undefined {
  const param = error.details.param;
  if (param === undefined) return undefined;
  if (Object.hasOwn(labels, param)) return param;
  const field = param.split('.')[0] ?? '';
  return Object.hasOwn(labels, field) ? field : undefined;
}

/**
 * A form control's description, and whether it is the one refused: the refusal is then read out
 * when the control is reached (a form's own description is not), as the note's textarea does.
 */
export function controlState(refused: { field?: string | undefined; errorId: string }, field: string, helpId?: string): Html {
  if (refused.field === field) return html`aria-invalid="true" aria-describedby="${[refused.errorId, helpId].filter(Boolean).join(' ')}"`;
  return helpId ? html`aria-describedby="${helpId}"` : html``;
}
