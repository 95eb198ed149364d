import type { Event } from '../../shared/contracts/events.js';
import { changedFields, type FieldChange } from '../../shared/events/changed-fields.js';
import { html, type Html } from '../pages/html.js';
import { money, when, type ShownIn } from './format.js';
import type { RecordValueNames } from './record-value-names.js';

/** Long values (a pasted note) are cut at this many characters: the row says what changed; the record page has the rest. */
const LONGEST_SHOWN = 160;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Cut by characters (code points): a cut by UTF-16 units could split an emoji, leaving half of it, shown as U+FFFD. */
function cut(text: string): string {
  if (text.length <= LONGEST_SHOWN) return text;
  const characters = Array.from(text);
  return characters.length > LONGEST_SHOWN ? `${characters.slice(0, LONGEST_SHOWN).join('')}…` : text;
}

/** One old or new value as people read it: names for ids, money in its currency, instants as dates. */
function shownValue(field: string, value: unknown, currency: unknown, names: RecordValueNames, shownIn: ShownIn): Html | string {
  if (field === 'owner_id' && (typeof value === 'string' || value === null)) return names.ownerName(value);
  if (value === null || value === undefined || value === '') return html`<span class="muted">(empty)</span>`;
  if (field === 'pipeline_id' && typeof value === 'string') return names.pipelineName(value);
  if (field === 'stage_id' && typeof value === 'string') return names.stageName(value);
  if (field === 'amount' && typeof value === 'number') return money(value, typeof currency === 'string' ? currency : null);
  if (typeof value === 'string' && ISO_INSTANT.test(value) && field.endsWith('_at')) return when(value, shownIn);
  return cut(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Custom fields change key by key: each changed key is a line of its own. */
function lines(changes: Record<string, FieldChange>): [string, FieldChange][] {
  return Object.entries(changes).flatMap(([field, change]): [string, FieldChange][] => {
    const { from, to } = change;
    if (field === 'custom_fields' && typeof from === 'object' && from !== null && typeof to === 'object' && to !== null) {
      const after = to as Record<string, unknown>;
      return Object.entries(from as Record<string, unknown>).map(([key, old]) => [`custom_fields.${key}`, { from: old, to: after[key] ?? null }]);
    }
    return [[field, change]];
  });
}

/** What an update changed, each field old → new; nothing for a creation or deletion. */
export function eventChanges(event: Event, names: RecordValueNames, shownIn: ShownIn): Html {
  const changes = changedFields(event);
  if (!changes) return html``;
  const previous = event.data.previous_attributes ?? {};
  const currencyNow = event.data.object.currency;
  const currencyBefore = 'currency' in previous ? previous.currency : currencyNow;
  return html`<ul class="changes">${lines(changes).map(
    ([field, { from, to }]) =>
      html`<li><code>${field}</code>: <span class="old-value">${shownValue(field, from, currencyBefore, names, shownIn)}</span> → <span class="new-value">${shownValue(field, to, currencyNow, names, shownIn)}</span></li>`,
  )}</ul>`;
}
