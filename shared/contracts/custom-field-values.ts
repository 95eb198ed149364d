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
  error: (issue) => (issue.code === 'invalid_union' ? 'must be text, a number, true or false, or null' : undefined),
});
export type CustomFieldValue = z.infer<typeof CustomFieldValue>;

/** All of a record's custom field values as JSON, at most (enforced by the database: migration 0015). */
export const CUSTOM_FIELDS_MAX_BYTES = 300_000;

export const CustomFieldValues = z
  .record(z.string().max(64), CustomFieldValue)
  .refine((v) => Object.keys(v).length <= 100, { message: 'at most 100 custom fields' });
export type CustomFieldValues = z.infer<typeof CustomFieldValues>;
