import { z } from 'zod';

/** Custom field keys: lower snake case, as in `lead_source`. */
/** Names that every JavaScript object already has: as keys they would read the object's internals. */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

export const CustomFieldKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*$/, 'must be lower snake case, starting with a letter (e.g. lead_source)')
  .refine((key) => !RESERVED_KEYS.has(key), { message: 'is reserved (constructor and prototype name object internals); choose another key' });

/**
 * A stored custom field value. Its type is checked against the field's definition
 * (text, number, boolean, date as YYYY-MM-DD, select option); null clears it.
 */
export const CustomFieldValue = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()], {
  // Said once for the union, instead of zod's bare "Invalid input" for an object or a list.
  error: (issue) =>
    issue.code !== 'invalid_union'
      ? undefined
      : typeof issue.input === 'number' // 1e400 reads as Infinity: a number, just one no field can keep
        ? 'is too large to be a number that can be kept exactly'
        : 'must be text, a number, true or false, or null',
});
export type CustomFieldValue = z.infer<typeof CustomFieldValue>;

/** All of a record's custom field values as JSON, at most (enforced by the database: migration 0015). */
export const CUSTOM_FIELDS_MAX_BYTES = 300_000;

/**
 * Some clients send the map as JSON text ("{\"tier\":\"gold\"}"); zod would say "expected record,
 * received string", which names neither the shape wanted nor the slip.
 */
const NOT_AN_OBJECT = 'must be a JSON object of custom field keys to values, e.g. {"tier": "gold"}';
function notAnObject(input: unknown): string {
  if (typeof input === 'string') return `${NOT_AN_OBJECT}, not a string: send the object itself, not JSON text of it`;
  if (Array.isArray(input)) return `${NOT_AN_OBJECT}, not a list`;
  if (input === null) return `${NOT_AN_OBJECT}, not null: to clear one field, give its key with null, e.g. {"tier": null}`;
  return `${NOT_AN_OBJECT}, not ${typeof input === 'number' ? 'a number' : typeof input === 'boolean' ? 'true or false' : typeof input}`;
}

export const CustomFieldValues = z
  .record(z.string().max(64), CustomFieldValue, {
    error: (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? notAnObject(issue.input) : undefined),
  })
  .refine((v) => Object.keys(v).length <= 100, { message: 'at most 100 custom fields' });
export type CustomFieldValues = z.infer<typeof CustomFieldValues>;
