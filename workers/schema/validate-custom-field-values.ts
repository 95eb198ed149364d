import { CONTROL_BUT_LINE_BREAKS, CONTROL_BUT_LINE_BREAKS_MESSAGE, VISIBLE } from '../../shared/contracts/common.js';
import type { CustomFieldValue, CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { optionNamed } from '../../shared/contracts/custom-fields.js';
import type { CustomFieldObject } from '../../shared/db/entities/custom-field.js';
import { ValidationError } from '../../shared/errors.js';
import { parseLocalDate } from '../../shared/time/zoned-day.js';
import { nullPrototypeRecord } from '../../shared/null-prototype.js';
import { requireCustomFieldsFit } from './custom-fields-size.js';
import type { FieldDefinition } from './custom-field-definitions.js';

/** Every active field appears on a record, null where it has no value. */
export function presentCustomFields(stored: CustomFieldValues, keys: string[]): CustomFieldValues {
  const out = nullPrototypeRecord<CustomFieldValue>();
  // Own values only: a key must never reach what every object inherits.
  for (const key of keys) out[key] = Object.hasOwn(stored, key) ? (stored[key] ?? null) : null;
  return out;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SAFE_LIMIT = Number.MAX_SAFE_INTEGER.toLocaleString('en-US');

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * The value written as text (a small model's "5" for 5, "true" for true): said so, since "must be
 * a number" for "5" reads as if 5 were refused. Values are not converted: a JSON type is meant.
 */
function asTextOf(value: unknown, form: RegExp): string {
  return typeof value === 'string' && form.test(value.trim()) ? `, not text: write ${value.trim().toLowerCase()} without quotes` : '';
}

/** A number or true/false where text goes: how to write it as text, since "must be text" for 42 did not say. */
function asJsonOf(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? `, not ${typeof value === 'number' ? 'a number' : 'true or false'}: write "${String(value)}" in quotes` : '';
}

/** Other text where a number goes ("1,500", "$20", "many"): the form a number takes, which "must be a number" alone left to guess. */
const NUMBER_FORM = ' such as 1500 or -12.5 (digits, a dot before decimals, no thousands separators or units)';

function problemWith(field: FieldDefinition, value: Exclude<CustomFieldValue, null>): string | null {
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') return `must be text${asJsonOf(value)}`;
      // Otherwise "" or "  " would satisfy a required field while saying nothing.
      if (field.required && !VISIBLE.test(value)) return 'is required and cannot be empty';
      // Each would be six bytes in every JSON copy of the record (its events, pages, webhooks).
      return CONTROL_BUT_LINE_BREAKS.test(value) ? CONTROL_BUT_LINE_BREAKS_MESSAGE : null;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a number${asTextOf(value, NUMBER_TEXT) || NUMBER_FORM}`;
      // Past 2^53 a JSON number is already rounded when it is read (12345678901234567890 arrives as
      // …7000): storing it would keep a value the client never sent.
      return Math.abs(value) <= Number.MAX_SAFE_INTEGER ? null : `must be between -${SAFE_LIMIT} and ${SAFE_LIMIT}: larger numbers cannot be kept exactly`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `must be true or false${asTextOf(value, /^(true|false)$/i)}`;
    case 'date':
      if (typeof value !== 'string' || !DATE.test(value)) return 'must be a date written YYYY-MM-DD';
      // The calendar the date filters use: years 0001 to 9999 (Date would also take 0000).
      return parseLocalDate(value) ? null : 'must be a real calendar date, in the years 0001 to 9999';
    case 'select':
      return typeof value === 'string' && optionNamed(field.options ?? [], value) !== undefined ? null : `must be one of: ${(field.options ?? []).join(', ')}`;
  }
}

export interface CustomFieldChange {
  /** Values to store (merged over what is stored). */
  set: CustomFieldValues;
  /** Keys whose values are cleared. */
  clear: string[];
  /**
   * Required fields sent as null: never cleared. Refused by {@link refuseClearingRequired} when the
   * record holds a value; where it holds none (a field made required after the record was written,
   * shown as null), sending the record back as read changes nothing and is no mistake.
   */
  requiredNulls: string[];
}

/** Keys are case-sensitive: name the one a caller meant in another case, and the keys there are. */
function knownKeys(fields: FieldDefinition[], key: string): string {
  const writable = fields.filter((f) => !f.archived).map((f) => f.key);
  const sameButCase = writable.find((k) => k.toLowerCase() === key.toLowerCase());
  const meant = sameButCase ? ` Did you mean "${sameButCase}"? Keys are case-sensitive.` : '';
  return `${meant} Valid keys: ${writable.length ? writable.join(', ') : 'none (describe_schema lists the fields)'}.`;
}

/**
 * Checks a change of custom field values against the workspace's definitions: unknown
 * or archived keys, wrong types and values outside a select's options are 400s naming
 * the field; null clears a value unless the field is required.
 */
export function customFieldChange(fields: FieldDefinition[], objectType: CustomFieldObject, change: CustomFieldValues): CustomFieldChange {
  const checked = checkedCustomFieldChange(fields, objectType, change);
  if (checked.problems[0]) throw checked.problems[0];
  return checked.change;
}

/** {@link customFieldChange}'s checks, every problem found (one per key, in the change's order), and the valid part of the change. */
function checkedCustomFieldChange(
  fields: FieldDefinition[],
  objectType: CustomFieldObject,
  change: CustomFieldValues,
): { change: CustomFieldChange; problems: ValidationError[] } {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const set = nullPrototypeRecord<CustomFieldValue>();
  const clear: string[] = [];
  const requiredNulls: string[] = [];
  const problems: ValidationError[] = [];
  for (const [key, value] of Object.entries(change)) {
    const param = `custom_fields.${key}`;
    const field = byKey.get(key);
    if (!field) {
      problems.push(new ValidationError(`${param}: no ${objectType} custom field is called "${key}".${knownKeys(fields, key)}`, param));
      continue;
    }
    if (field.archived) {
      // Else a caller corrects the value and is refused again: the key is what to change.
      problems.push(new ValidationError(`${param}: the field "${key}" is archived and cannot be written: leave it out, or have the field restored first (archived: false, with PATCH /v1/custom-fields/{id} or Studio's update_custom_field).`, param));
      continue;
    }
    if (value === null) {
      if (field.required) requiredNulls.push(key);
      else clear.push(key);
      continue;
    }
    const problem = problemWith(field, value);
    if (problem) problems.push(new ValidationError(`${param}: ${problem}.`, param));
    // A select value is stored as the option it names.
    else set[key] = field.type === 'select' && typeof value === 'string' ? (optionNamed(field.options ?? [], value) ?? value) : value;
  }
  return { change: { set, clear, requiredNulls }, problems };
}

/** The values a change writes, key by key: a cleared one as null. */
export function valuesWritten(change: CustomFieldChange | null): CustomFieldValues {
  const values = nullPrototypeRecord<CustomFieldValue | null>();
  if (!change) return values;
  Object.assign(values, change.set);
  for (const key of [...change.clear, ...change.requiredNulls]) values[key] = null;
  return values;
}

/** Refuses a change that sends null for a required field the record (as stored, locked) holds a value in. */
export function refuseClearingRequired(change: CustomFieldChange | null, stored: CustomFieldValues): void {
  for (const key of change?.requiredNulls ?? []) {
    if ((Object.hasOwn(stored, key) ? stored[key] : null) === null) continue;
    const param = `custom_fields.${key}`;
    throw new ValidationError(`${param}: the field "${key}" is required and cannot be cleared.`, param);
  }
}

/** The values of a new record: the change, with every required active field present. */
export function customFieldsForCreate(fields: FieldDefinition[], objectType: CustomFieldObject, change: CustomFieldValues): CustomFieldValues {
  const checked = checkedCustomFieldsForCreate(fields, objectType, change);
  if (checked.problems[0]) throw checked.problems[0];
  return checked.values;
}

/**
 * {@link customFieldsForCreate}'s checks, every problem found, in the order it checks them (the
 * values given, then the required fields missing, then the size): a bulk import reports them all.
 */
export function checkedCustomFieldsForCreate(
  fields: FieldDefinition[],
  objectType: CustomFieldObject,
  change: CustomFieldValues,
): { values: CustomFieldValues; problems: ValidationError[] } {
  const { change: checked, problems } = checkedCustomFieldChange(fields, objectType, change);
  const { set } = checked;
  const refused = new Set(problems.map((problem) => problem.details.param));
  for (const field of fields) {
    const param = `custom_fields.${field.key}`;
    // A value given but refused is that value's problem, not a missing one.
    if (field.required && !field.archived && set[field.key] === undefined && !refused.has(param)) {
      problems.push(new ValidationError(`${param}: the field "${field.key}" is required.`, param));
    }
  }
  if (problems.length === 0) {
    try {
      requireCustomFieldsFit(set);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(error);
    }
  }
  return { values: set, problems };
}
