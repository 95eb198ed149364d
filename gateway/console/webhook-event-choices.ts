import { EVENT_TYPES, objectTypeOf, type EventObjectType, type EventType } from '../../shared/contracts/events.js';
import { html, type Html } from '../pages/html.js';
import { EVENT_OBJECT_LABELS } from './event-record.js';

/** What the create form asks: every event type (`*`, future ones too), or the ones ticked. */
export interface WebhookEventChoice {
  scope: 'all' | 'chosen';
  types: string[];
}

/** Event types by the kind of record they are about, in the contract's order. */
function typesByObject(): [EventObjectType, EventType[]][] {
  const groups = new Map<EventObjectType, EventType[]>();
  for (const type of EVENT_TYPES) {
    const object = objectTypeOf(type);
    groups.set(object, [...(groups.get(object) ?? []), type]);
  }
  return [...groups];
}

/**
 * "All events" or "only these", then a checkbox for each type, grouped by kind of record.
 * The boxes stay usable under "All events" (no script to grey them out); the route ignores
 * them then.
 */
export function webhookEventChoices(choice: WebhookEventChoice): Html {
  return html`<fieldset>
    <legend>Events to send</legend>
    <label class="inline"><input type="radio" name="events_scope" value="all" ${choice.scope === 'all' ? 'checked' : ''}>
      All events, including types added later</label>
    <label class="inline"><input type="radio" name="events_scope" value="chosen" ${choice.scope === 'chosen' ? 'checked' : ''}>
      Only the types ticked below</label>
    <div class="event-groups">
    ${typesByObject().map(
      ([object, types]) => html`<fieldset>
        <legend>${EVENT_OBJECT_LABELS[object]}</legend>
        ${types.map(
          (type) => html`<label class="inline"><input type="checkbox" name="events" value="${type}" ${choice.types.includes(type) ? 'checked' : ''}>
            <code>${type}</code></label>`,
        )}
      </fieldset>`,
    )}
    </div>
  </fieldset>`;
}

/** What the endpoint receives, in words: "All events" or the list of types. */
export function enabledEventsText(enabled: readonly string[]): Html {
  return enabled.includes('*') ? html`All events` : html`${enabled.map((type) => html`<code class="scope">${type}</code> `)}`;
}
