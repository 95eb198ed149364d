import type { CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { html, type Html } from '../pages/html.js';
import type { FieldLabel } from './custom-field-labels.js';

/** A record's fields as a list of terms and values; custom fields that have a value follow. */
export function recordFacts(facts: [string, Html | string][], customFields: CustomFieldValues, label: FieldLabel): Html {
  const custom = Object.entries(customFields).filter(([, v]) => v !== null);
  return html`<dl class="facts">
    ${facts.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}
    ${custom.map(([key, value]) => html`<dt>${label(key)}</dt><dd>${String(value)}</dd>`)}
  </dl>`;
}
