import type { CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { html, type Html } from '../pages/html.js';
import type { FieldLabel } from './custom-field-labels.js';

/** The custom fields that have a value, compactly, under a record's name. */
export function customFieldList(values: CustomFieldValues, label: FieldLabel): Html {
  const set = Object.entries(values).filter(([, v]) => v !== null);
  if (set.length === 0) return html``;
  return html`<ul class="fields">${set.map(([key, value]) => html`<li><span class="muted">${label(key)}:</span> ${String(value)}</li>`)}</ul>`;
}
