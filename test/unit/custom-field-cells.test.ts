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

t.test('a select cell names its option without case, unless two options differ only by it', async (t) => {
  const read = customFieldCellReader([
    { key: 'source', type: 'select', options: ['web', 'Trade Show'], required: false, archived: false },
    { key: 'tier', type: 'select', options: ['Gold', 'gold'], required: false, archived: false },
  ]);
  t.same(read({ source: ' Web ' }), { source: 'web' });
  t.same(read({ source: 'TRADE SHOW' }), { source: 'Trade Show' });
  t.same(read({ source: 'billboard' }), { source: 'billboard' }, 'no option: left as written, for the usual check to refuse');
  t.same(read({ tier: 'gold' }), { tier: 'gold' }, 'as written first');
  t.same(read({ tier: 'GOLD' }), { tier: 'GOLD' }, 'two options without case: left as written');
});
