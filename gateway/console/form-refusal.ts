import type { CrmError } from '../../shared/errors.js';

/**
 * A refusal as a console form says it: the field named by its label on the form ("Expires on:
 * must be in the future"), where the message names the API's field (`expires_at: …`), a name
 * the page shows nowhere. A field of the list's items (`scopes.0`) is named by its list's label.
 */
export function refusalMessage(error: Pick<CrmError, 'message' | 'details'>, labels: Readonly<Record<string, string>>): string {
  const param = error.details.param;
  if (param === undefined || !error.message.startsWith(`${param}: `)) return error.message;
  const field = param.split('.')[0] ?? '';
  if (!Object.hasOwn(labels, field)) return error.message;
  return `${labels[field]}: ${error.message.slice(param.length + 2)}`;
}
