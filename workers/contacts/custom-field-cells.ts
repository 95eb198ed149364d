import type { CustomFieldValue, CustomFieldValues } from '../../shared/contracts/custom-field-values.js';
import { nullPrototypeRecord } from '../../shared/null-prototype.js';
import type { FieldDefinition } from '../schema/custom-field-definitions.js';

/** What JSON would accept as a number, written in a cell (no hex, no thousands separators). */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN = new Map([['true', true], ['false', false]]);

/**
 * Reads the custom field cells of an import file by each field's type: `42` becomes the
 * number 42 in a number field, `TRUE` the boolean true in a boolean one; text, date and select
 * cells are the text they hold (a select's option is then found as for any write:
 * optionNamed). Empty cells are left out. Text that does not read as its type, and keys with
 * no definition, pass through unchanged, so the usual checks refuse them with the reason an
 * API call gets, and what is stored is what the API stores for the typed value.
 */
export function customFieldCellReader(fields: FieldDefinition[]): (cells: Record<string, string>) => CustomFieldValues {
  const types = new Map(fields.map((f) => [f.key, f.type]));
  return (cells) => {
    const values = nullPrototypeRecord<CustomFieldValue>();
    for (const [key, cell] of Object.entries(cells)) {
      const text = cell.trim();
      if (text === '') continue;
      const type = types.get(key);
      // 1e400 reads as Infinity, as in a JSON body: refused then with the API's reason ("too large").
      if (type === 'number' && NUMBER.test(text)) values[key] = Number(text);
      else if (type === 'boolean' && BOOLEAN.has(text.toLowerCase())) values[key] = BOOLEAN.get(text.toLowerCase()) as boolean;
      else values[key] = text;
    }
    return values;
  };
}
