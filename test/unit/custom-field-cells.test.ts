import t from 'tap';
import { customFieldCellReader } from '../../workers/contacts/custom-field-cells.js';
import { optionNamed } from '../../shared/contracts/custom-fields.js';

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
  t.equal(read({ score: '1e400' }).score, Infinity, 'a number too large for a double reads as a JSON body reads it, for the same refusal');
});

t.test('a select cell is the text it holds: its option is found by the rule of every write', async (t) => {
  const read = customFieldCellReader([{ key: 'source', type: 'select', options: ['web', 'Trade Show'], required: false, archived: false }]);
  t.same(read({ source: ' Web ' }), { source: 'Web' });
  t.same(read({ source: 'billboard' }), { source: 'billboard' });
});

t.test('a select value names its option as written, else the one option equal to it without case and spaces around it', async (t) => {
  t.equal(optionNamed(['web', 'Trade Show'], 'web'), 'web');
  t.equal(optionNamed(['web', 'Trade Show'], ' Web '), 'web');
  t.equal(optionNamed(['web', 'Trade Show'], 'TRADE SHOW'), 'Trade Show');
  t.equal(optionNamed(['web', 'Trade Show'], 'billboard'), undefined);
  // Options are unique without case; two stored before that rule: the one written as sent, else the first.
  t.equal(optionNamed(['Gold', 'gold'], 'gold'), 'gold', 'as written first');
  t.equal(optionNamed(['Gold', 'gold'], 'GOLD'), 'Gold', 'else the first listed, not none: a value that names no option would be refused, and not counted as holding one when options are removed');
  // Twins stored before characters that show as nothing were folded.
  t.equal(optionNamed(['Gold\u200b', 'Gold'], 'gold'), 'Gold\u200b');
  t.equal(optionNamed(['Gold\u200b', 'Gold'], 'Gold'), 'Gold');
});
