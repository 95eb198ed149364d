import type { Event } from '../contracts/events.js';

export interface FieldChange {
  from: unknown;
  to: unknown;
}

/**
 * Each field an update changed, from its old value (`previous_attributes`) to its new one
 * (`data.object`); for `custom_fields`, only the keys that changed. Null for an event that
 * is not an update (a creation or a deletion has no previous attributes).
 */
export function changedFields(event: Pick<Event, 'data'>): Record<string, FieldChange> | null {
  const previous = event.data.previous_attributes;
  if (!previous) return null;
  const now = event.data.object;
  const out: Record<string, FieldChange> = {};
  for (const [field, from] of Object.entries(previous)) {
    const to = now[field];
    out[field] =
      field === 'custom_fields' && typeof from === 'object' && from !== null && typeof to === 'object' && to !== null
        ? { from, to: Object.fromEntries(Object.keys(from).map((k) => [k, (to as Record<string, unknown>)[k] ?? null])) }
        : { from, to: to ?? null };
  }
  return out;
}
