import t from 'tap';
import { customFieldCellReader } from '../../workers/contacts/custom-field-cells.js';
import type { FieldDefinition } from '../../workers/schema/custom-field-definitions.js';
import { customFieldChange, customFieldsForCreate, presentCustomFields } from '../../workers/schema/validate-custom-field-values.js';
import { filledQuery } from '../../gateway/console/form-fields.js';

/** Maps whose keys users choose have no prototype: nothing inherited is ever read as a value. */
const field = (key: string, required = false): FieldDefinition => ({ key, type: 'text', options: null, required, archived: false });

t.test('custom field values are null-prototype maps', async (t) => {
  t.equal(Object.getPrototypeOf(presentCustomFields({}, ['tier'])), null);
  t.equal(presentCustomFields({}, ['constructor']).constructor, null, 'an unset `constructor` field reads null, not Object');
  t.equal(Object.getPrototypeOf(customFieldChange([field('tier')], 'contact', { tier: 'gold' }).set), null);
  t.throws(() => customFieldsForCreate([field('constructor', true)], 'contact', {}), /custom_fields\.constructor: the field "constructor" is required/);
  const cells = customFieldCellReader([field('tier')])({ tier: 'gold', toString: 'x' });
  t.equal(Object.getPrototypeOf(cells), null);
  t.equal(cells.toString, 'x', 'an import column named like an inherited member is just a key');
});

t.test("the console's filter query is a null-prototype map", async (t) => {
  const query = filledQuery({ q: 'ada', constructor: 'x', empty: ' ' });
  t.equal(Object.getPrototypeOf(query), null);
  t.same({ ...query }, { q: 'ada', constructor: 'x' });
});
