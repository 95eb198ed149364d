import { isDeepStrictEqual } from 'node:util';
import type { CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { ConflictError } from '../../shared/errors.js';

type Values = Readonly<Record<string, unknown>> & { custom_fields?: CustomFieldValues | undefined };

/**
 * A value as a form can give it back: an HTML form has no null and sends line breaks as LF, so
 * text that is blank or holds CR (stored so through REST) would otherwise never match what an
 * edit form read, and every save of that field would be a conflict.
 */
function asFormReads(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  return value.trim() === '' ? null : value.replace(/\r\n?/g, '\n');
}

/** A record's fields (custom fields as custom_fields.<key>), flat, missing custom values as null. */
function flatten(values: Values): Map<string, unknown> {
  const flat = new Map<string, unknown>();
  for (const [field, value] of Object.entries(values)) {
    if (field === 'custom_fields' || value === undefined) continue;
    flat.set(field, asFormReads(value));
  }
  for (const [key, value] of Object.entries(values.custom_fields ?? {})) flat.set(`custom_fields.${key}`, asFormReads(value));
  return flat;
}

/**
 * Refuses a write (409 conflict, naming the field) that changes a field someone else changed
 * since the writer read it: its stored value (`current`, the locked record as the API shows it)
 * is neither the one read (`expected`) nor the one written (`written`: the same form sent twice
 * is no conflict). Called on the row locked for the write, so no write can come in between.
 */
export function refuseChangedMeanwhile(kind: 'contact' | 'deal', current: Values, expected: Values | undefined, written: Values): void {
  if (expected === undefined) return;
  const stored = flatten(current);
  const writes = flatten(written);
  for (const [field, value] of flatten(expected)) {
    const now = stored.get(field) ?? null;
    if (isDeepStrictEqual(now, value) || (writes.has(field) && isDeepStrictEqual(now, writes.get(field)))) continue;
    throw new ConflictError(
      `${field}: changed meanwhile by someone else: the ${kind} now holds ${JSON.stringify(now)}, not ${JSON.stringify(value)} as it was read. Nothing was changed: read the ${kind} again and make the change on what it is now.`,
      field,
    );
  }
}
