import t from 'tap';
import { customFieldCellReader } from '../../workers/contacts/custom-field-cells.js';

t.test('custom field cells are read by the field type', async (t) => {
  const read = customFieldCellReader([
    { key: 'score', type: 'number', options: null, required: false, archived: false },
    { key: 'vip', type: 'boolean', options: null, required: false, archived: false },
    { key: 'since', type: 'date', options: null, required: false, archived: false },
  ]);
  t.same(read({ score: ' -4.5 ', vip: 'TRUE', since: '2026-01-31', other: 'x' }), { score: -4.5, vip: true, since: '2026-01-31', other: 'x' });
  t.same(read({ score: '1e3', vip: 'false' }), { score: 1000, vip: false });
  t.same(read({ score: 'many', vip: 'yes' }), { score: 'many', vip: 'yes' }, 'left as text for the usual check to refuse');
  t.same(read({ score: '', vip: '  ' }), {}, 'empty cells are no value');
  t.equal(read({ score: '1e400' }).score, '1e400', 'a number too large for a double is left as text too, not read as Infinity');
});
