import type { Request } from 'express';
import { optionNamed, type CustomField } from '../../shared/contracts/custom-fields.js';
import type { CustomFieldValue, CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { ValidationError } from '../../shared/errors.js';
import { nullPrototypeRecord } from '../../shared/null-prototype.js';
import { html, type Html } from '../pages/html.js';
import { GROUPED_DIGITS } from './amount-field.js';
import { textField } from './form-fields.js';
import { controlState } from './form-refusal.js';

/** A record's custom fields as a form types them: each active field's text, by key. */
export type CustomFieldForm = Record<string, string>;

/** A field's control name: the API's name of it, the one its refusals give (`custom_fields.tier`). */
export function customFieldName(key: string): string {
  return `custom_fields.${key}`;
}

/** The fields by control name and label, for {@link refusalMessage} and {@link refusedField} of a form with them. */
export function customFieldLabelsOf(fields: readonly CustomField[]): Record<string, string> {
  const labels = nullPrototypeRecord<string>();
  for (const field of fields) labels[customFieldName(field.key)] = field.label;
  return labels;
}

/** The prefix of an edit form's hidden controls holding the values it was read with. */
const ORIGINAL = 'original_';

/**
 * The fields as posted (`original`: the values an edit form was read with); a field archived
 * meanwhile is left out with what was typed in it.
 */
export function customFieldFormOf(req: Request, fields: readonly CustomField[], options: { original?: boolean } = {}): CustomFieldForm {
  const form = nullPrototypeRecord<string>();
  const prefix = options.original === true ? ORIGINAL : '';
  // A browser sends a line break as CRLF (a textarea's and a hidden copy's alike): read as LF, as
  // stored and as the note form's text is, so a value sent back as read is the value read. Read
  // past twice the API's 2,000 characters first (each may have come as two), so that a value too
  // long is refused, not cut.
  for (const field of fields) form[field.key] = textField(req, `${prefix}${customFieldName(field.key)}`, 4001).replace(/\r\n?/g, '\n');
  return form;
}

/** A stored value as the form types it: a number in plain digits (never 1e-7, which the form would refuse), yes/no as true/false; none is empty. */
function textOf(value: CustomFieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return plainDigits(value);
  return String(value);
}

/**
 * A number in plain digits that reads back as the same number: 1e-21 as 0.000…001, where
 * toLocaleString (at most 20 decimals) gave 0, and a save of the form then changed it.
 */
function plainDigits(value: number): string {
  const text = String(value); // the shortest text that reads back as the same number
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign = '', lead = '', rest = '', exponent = '0'] = m;
  const shift = Number(exponent);
  if (shift < 0) return `${sign}0.${'0'.repeat(-shift - 1)}${lead}${rest}`;
  return `${sign}${lead}${rest}${'0'.repeat(Math.max(0, shift - rest.length))}`;
}

/** A record's values of the active fields as an edit form shows them. */
export function customFieldFormFrom(fields: readonly CustomField[], values: CustomFieldValues): CustomFieldForm {
  const form = nullPrototypeRecord<string>();
  for (const field of fields) form[field.key] = textOf(Object.hasOwn(values, field.key) ? values[field.key] : null);
  return form;
}

/** A number as the amount field reads one (commas only between thousands, a dot before decimals), with a sign. */
const NUMBER = new RegExp(String.raw`^([+-]?)${GROUPED_DIGITS}(\.\d+)?$`);

/** A typed value as REST takes it (a JSON number, true or false, text); undefined: left empty. */
function valueOf(field: CustomField, typed: string): CustomFieldValue | undefined {
  if (typed.trim() === '') return undefined;
  const param = customFieldName(field.key);
  switch (field.type) {
    case 'number': {
      const match = NUMBER.exec(typed.trim());
      // 1250,50 is refused, not read as thousands: many write a decimal comma.
      if (!match) throw new ValidationError(`${param}: must be a number such as 1,250 or -12.5, with a dot before decimals (commas only between thousands).`, param);
      const [, sign = '', whole = '', fraction = ''] = match;
      return Number(`${sign}${whole.replace(/[, ]/g, '')}${fraction}`);
    }
    case 'boolean':
      if (typed !== 'true' && typed !== 'false') throw new ValidationError(`${param}: must be Yes or No.`, param);
      return typed === 'true';
    case 'text':
    case 'date':
    case 'select':
      return typed;
  }
}

/**
 * The values POST /v1/contacts and /v1/deals take from the form: an empty field is not sent (a
 * required one is then refused by the worker, which checks every value against its field).
 */
export function customFieldValuesOf(fields: readonly CustomField[], form: CustomFieldForm): CustomFieldValues {
  const values = nullPrototypeRecord<CustomFieldValue>();
  for (const field of fields) {
    const value = valueOf(field, form[field.key] ?? '');
    if (value !== undefined) values[field.key] = value;
  }
  return values;
}

/**
 * The values PATCH takes from an edit form: only the fields changed from what the form was read
 * with, so a value someone else set meanwhile in a field the member left alone stands (custom
 * fields merge key by key). A field emptied is null, which clears it; the worker refuses that
 * for a required field that holds a value.
 */
export function changedCustomFieldValues(fields: readonly CustomField[], form: CustomFieldForm, original: CustomFieldForm): CustomFieldValues {
  const values = nullPrototypeRecord<CustomFieldValue>();
  for (const field of fields) {
    const typed = form[field.key] ?? '';
    if (typed === (original[field.key] ?? '')) continue;
    values[field.key] = valueOf(field, typed) ?? null;
  }
  return values;
}

/** An edit form's hidden record of the values it was read with, read back by {@link customFieldFormOf} with `original`. */
export function originalCustomFieldInputs(fields: readonly CustomField[], original: CustomFieldForm): Html {
  return html`${fields.map((field) => html`<input type="hidden" name="${ORIGINAL}${customFieldName(field.key)}" value="${original[field.key] ?? ''}">`)}`;
}

type Refused = { field?: string | undefined; errorId: string };

/** A list's first option: nothing chosen. A required field's cannot be chosen where the form demands a value, so the browser asks for a choice instead of taking the first. */
function noneOption(field: CustomField, typed: string, demanded: boolean): Html {
  return html`<option value="" ${typed === '' ? 'selected' : ''} ${demanded ? 'disabled' : ''}>${field.required ? 'Choose' : 'None'}</option>`;
}

/**
 * A select's options with the value shown chosen: the option it names as the API reads it
 * (optionNamed: "Cafe\u0301" or "gold" names "Café" or "Gold"), sent as the value itself so the
 * form sent back unchanged changes nothing; a value naming none (kept from before the options
 * changed) listed as it is, so the form does not change it unasked.
 */
function selectOptions(options: readonly string[], typed: string): Html {
  const named = typed === '' ? undefined : optionNamed(options, typed);
  const extra = typed !== '' && named === undefined ? html`<option value="${typed}" selected>${typed}</option>` : html``;
  return html`${options.map((option) => html`<option value="${option === named ? typed : option}" ${option === named ? 'selected' : ''}>${option}</option>`)}${extra}`;
}

function control(field: CustomField, typed: string, refused: Refused, demanded: boolean): Html {
  const name = customFieldName(field.key);
  const id = `field-${field.key}`;
  const required = demanded ? html`required` : html``;
  switch (field.type) {
    case 'text':
      // A value with line breaks in a textarea (an input would drop them); the line break after
      // the tag is the one the HTML parser drops, so a value starting with one keeps it. Any
      // other in a one-line input, where Enter sends the form rather than adding a line break
      // to a value such as an account code.
      // A lone CR too (REST keeps one): an input would drop it, and a save of other fields with it.
      if (/[\r\n]/.test(typed)) {
        return html`<textarea id="${id}" name="${name}" rows="3" maxlength="2000" autocomplete="off" ${required} ${controlState(refused, name)}>
${typed}</textarea>`;
      }
      return html`<input id="${id}" name="${name}" type="text" maxlength="2000" autocomplete="off" value="${typed}" ${required} ${controlState(refused, name)}>`;
    case 'number':
      return html`<input id="${id}" name="${name}" type="text" inputmode="decimal" autocomplete="off" value="${typed}" ${required} ${controlState(refused, name, `${id}-help`)}>
        <p id="${id}-help" class="muted">A number such as 1,250 or -12.5.</p>`;
    case 'date':
      return html`<input id="${id}" name="${name}" type="date" value="${typed}" ${required} ${controlState(refused, name)}>`;
    case 'boolean':
      return html`<select id="${id}" name="${name}" ${required} ${controlState(refused, name)}>
        ${noneOption(field, typed, demanded)}
        <option value="true" ${typed === 'true' ? 'selected' : ''}>Yes</option>
        <option value="false" ${typed === 'false' ? 'selected' : ''}>No</option>
      </select>`;
    case 'select':
      return html`<select id="${id}" name="${name}" ${required} ${controlState(refused, name)}>
        ${noneOption(field, typed, demanded)}
        ${selectOptions(field.options ?? [], typed)}
      </select>`;
  }
}

/**
 * The workspace's active custom fields of a kind of record as form controls, by their labels: a
 * number typed as text (the API keeps numbers `type=number` would refuse or round), a date with
 * the browser's date input (YYYY-MM-DD, as the API takes it), yes/no and a select's options as
 * lists. The refused one is marked and described by the refusal (`errorId`). On an edit form
 * (`held`: the values it was read with) a required field is demanded only where the record holds
 * a value: one made required after the record was saved must not block every other change, which
 * PATCH takes (the worker refuses only clearing a value the record holds).
 */
export function customFieldInputs(fields: readonly CustomField[], form: CustomFieldForm, refused: Refused, held?: CustomFieldForm): Html {
  return html`${fields.map((field) => html`<label for="field-${field.key}">${field.label}</label>
    ${control(field, form[field.key] ?? '', refused, field.required && (held === undefined || (held[field.key] ?? '') !== ''))}`)}`;
}
