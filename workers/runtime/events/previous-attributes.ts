import { isDeepStrictEqual } from 'node:util';

/** The record's own fields that change with every write and say nothing about what changed. */
const IGNORED = new Set(['updated_at']);
const NONE = new Set<string>();

type Fields = Readonly<Record<string, unknown>>;

const isPlainObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The old values of the fields that differ between two versions of a record (Stripe's
 * `previous_attributes`); a nested object such as `custom_fields` lists only its changed
 * keys. Null when nothing changed.
 */
export function previousAttributes(before: Fields, after: Fields): Record<string, unknown> | null {
  return changedValues(before, after, IGNORED);
}

/**
 * Only the record's own `updated_at` is ignored: inside `custom_fields` the keys are the
 * workspace's, and a custom field may well be called `updated_at`.
 */
function changedValues(before: Fields, after: Fields, ignored: ReadonlySet<string>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (ignored.has(key)) continue;
    const old = before[key];
    const now = after[key];
    if (isDeepStrictEqual(old, now)) continue;
    out[key] = isPlainObject(old) && isPlainObject(now) ? (changedValues(old, now, NONE) ?? {}) : (old ?? null);
  }
  return Object.keys(out).length > 0 ? out : null;
}
