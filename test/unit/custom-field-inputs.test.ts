import t from 'tap';
import type { CustomField } from '../../shared/contracts/custom-fields.js';
import { customFieldValuesOf } from '../../gateway/console/custom-field-inputs.js';

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
