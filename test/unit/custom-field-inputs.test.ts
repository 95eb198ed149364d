import t from 'tap';
import type { CustomField } from '../../shared/contracts/custom-fields.js';
import { changedCustomFieldValues, customFieldFormFrom, customFieldValuesOf } from '../../gateway/console/custom-field-inputs.js';

const field = (key: string, type: CustomField['type'], options: string[] | null = null): CustomField => ({
  object: 'custom_field',
  id: `fld_${key}`,
  object_type: 'contact',
  key,
  label: key,
  type,
  options,
  required: false,
  archived: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const FIELDS = [field('note', 'text'), field('seats', 'number'), field('vip', 'boolean'), field('renews_on', 'date'), field('tier', 'select', ['Gold', 'Silver'])];

t.test("a new record form's custom fields reach the worker as REST sends them; empty ones are not sent", async (t) => {
  t.same(customFieldValuesOf(FIELDS, { note: 'Met at a fair', seats: '1,250.5', vip: 'false', renews_on: '2027-03-01', tier: 'Gold' }), {
    note: 'Met at a fair',
    seats: 1250.5,
    vip: false,
    renews_on: '2027-03-01',
    tier: 'Gold',
  });
  t.same(customFieldValuesOf(FIELDS, { note: '  ', seats: '', vip: '', renews_on: '', tier: '' }), {}, 'blank is none');
  t.same(customFieldValuesOf(FIELDS, {}), {}, 'and so is a field the form did not send');
  for (const [typed, number] of [['-12.5', -12.5], ['+3', 3], ['1 250', 1250], [' 42 ', 42], ['0', 0]] as const) {
    t.equal(customFieldValuesOf(FIELDS, { seats: typed }).seats, number, typed);
  }
});

t.test('a number that is none, or written with a decimal comma, and a yes/no that is neither are refused naming the field', async (t) => {
  for (const typed of ['1250,50', '1,5', 'twelve', '1e3', '12.', '--1']) {
    t.throws(
      () => customFieldValuesOf(FIELDS, { seats: typed }),
      { message: 'custom_fields.seats: must be a number such as 1,250 or -12.5, with a dot before decimals (commas only between thousands).', details: { param: 'custom_fields.seats' } },
      typed,
    );
  }
  t.throws(() => customFieldValuesOf(FIELDS, { vip: 'yes' }), { code: 'validation_failed', details: { param: 'custom_fields.vip' } });
});

t.test("an edit form shows a record's values as it types them, and sends only the fields changed; one emptied is null", async (t) => {
  const stored = { note: 'Met at a fair', seats: 0.0000001, vip: false, renews_on: null, tier: 'Gold' };
  const shown = customFieldFormFrom(FIELDS, stored);
  t.same({ ...shown }, { note: 'Met at a fair', seats: '0.0000001', vip: 'false', renews_on: '', tier: 'Gold' }, 'a small number in plain digits, which the form reads back');
  t.same(customFieldValuesOf(FIELDS, { seats: shown.seats ?? '' }).seats, 0.0000001);
  t.same({ ...customFieldFormFrom(FIELDS, {}) }, { note: '', seats: '', vip: '', renews_on: '', tier: '' }, 'a field the record has no key for is empty');

  t.same({ ...changedCustomFieldValues(FIELDS, shown, shown) }, {}, 'nothing changed: nothing sent');
  t.same({ ...changedCustomFieldValues(FIELDS, { ...shown, seats: '1,250', tier: '', renews_on: '2027-03-01' }, shown) }, { seats: 1250, renews_on: '2027-03-01', tier: null }, 'changed ones only; emptied: null');
  t.same({ ...changedCustomFieldValues(FIELDS, { ...shown, note: '  ' }, shown) }, { note: null }, 'blank is emptied');
  t.throws(() => changedCustomFieldValues(FIELDS, { ...shown, seats: '1,5' }, shown), { code: 'validation_failed', details: { param: 'custom_fields.seats' } }, 'a changed value is checked as on a new record');
});
