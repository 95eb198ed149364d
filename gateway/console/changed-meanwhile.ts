import { customFieldName, type CustomFieldForm } from './custom-field-inputs.js';

const CUSTOM = customFieldName('');

/** A form's values as text, by field name (custom fields as custom_fields.<key>). */
export type FormValues = Readonly<Record<string, string>>;

/** An edit form's own fields and its custom fields as one set of values, by the names refusals use. */
export function formValuesOf(form: object, custom: CustomFieldForm): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [field, value] of Object.entries(form)) if (typeof value === 'string') values[field] = value;
  for (const [key, value] of Object.entries(custom)) values[customFieldName(key)] = value;
  return values;
}

/**
 * The fields of a refused edit form that someone else changed since it was read: changed in
 * the form (typed is not what was read), and the record now holds neither what was read nor what
 * was typed. The worker refused the save (409 conflict); this names, for the page, each field it
 * would have refused, with the record as it is now read again.
 */
export function fieldsChangedMeanwhile(fields: readonly string[], typed: FormValues, read: FormValues, now: FormValues): string[] {
  return fields.filter((field) => {
    const [t, r, n] = [typed[field] ?? '', read[field] ?? '', now[field] ?? ''];
    return t !== r && n !== r && n !== t;
  });
}

const shown = (value: string) => (value.trim() === '' ? 'empty' : `“${value}”`);

/** The refusal beside one such field: what it holds now and held then; what was typed stays in the form. */
export function changedMeanwhileMessage(label: string, read: string, now: string): string {
  return `${label}: changed meanwhile by someone else; it is now ${shown(now)} (it was ${shown(read)} when you opened this form). Nothing was saved; what you typed is kept: save again to set it.`;
}

/** The values a refused form was read with, those of the fields changed meanwhile now the current ones: saving again sets them knowingly. */
export function rebasedOn<F extends object>(original: F, originalCustom: CustomFieldForm, changed: readonly string[], now: FormValues): { original: F; originalCustom: CustomFieldForm } {
  const rebased = { original: { ...original }, originalCustom: { ...originalCustom } };
  for (const field of changed) {
    if (field.startsWith(CUSTOM)) rebased.originalCustom[field.slice(CUSTOM.length)] = now[field] ?? '';
    else (rebased.original as Record<string, string>)[field] = now[field] ?? '';
  }
  return rebased;
}
