import t from 'tap';
import { importColumns } from '../../cli/contact-import/import-columns.js';

const columns = importColumns('contacts.csv', ['first_name', 'phone', 'email']);

t.test('empty cells after the last column (a comma at the end of the row) are no value, not a wrong row', async (t) => {
  const read = columns.toRow({ fields: ['Ada', '4155550100', 'ada@example.test', ''], line: 2 });
  t.same('row' in read && read.row, { line: 2, first_name: 'Ada', phone: '4155550100', email: 'ada@example.test' });
  t.match(columns.toRow({ fields: ['Bob', '4155550101', '', '', ' '], line: 3 }), { row: { line: 3, first_name: 'Bob', phone: '4155550101' } });
});

t.test('an extra cell with a value, or a missing cell, still makes the row refused', async (t) => {
  t.same(columns.toRow({ fields: ['Ada', '4155550100', '', 'x'], line: 2 }), {
    problem: { line: 2, reason: 'The row has 4 fields where the header has 3.' },
  });
  t.same(columns.toRow({ fields: ['Ada', '4155550100', '', 'x', ''], line: 3 }), {
    problem: { line: 3, reason: 'The row has 5 fields where the header has 3.' },
  });
  t.same(columns.toRow({ fields: ['Ada', '4155550100'], line: 4 }), {
    problem: { line: 4, reason: 'The row has 2 fields where the header has 3.' },
  });
});
