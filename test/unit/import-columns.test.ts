import t from 'tap';
import { importColumns } from '../../cli/contact-import/import-columns.js';

const columns = importColumns('contacts.csv', ['first_name', 'phone', 'email']);

t.test('empty cells after the last column (a comma at the end of the row) are no value, not a wrong row', async (t) => {
  const read = columns.toRow({ fields: ['Ada', '4155550100', 'ada@example.test', ''], line: 2 });
  t.same('row' in read && read.row, { line: 2, first_name: 'Ada', phone: '4155550100', email: 'ada@example.test' });
  t.match(columns.toRow({ fields: ['Bob', '4155550101', '', '', ' '], line: 3 }), { row: { line: 3, first_name: 'Bob', phone: '4155550101' } });
});

t.test('blank names after the last column (as spreadsheets save them) are no column; a blank between names is refused', async (t) => {
  const trailing = importColumns('contacts.csv', ['first_name', 'phone', '', ' ']);
  t.match(trailing.toRow({ fields: ['Ada', '4155550100', '', ''], line: 2 }), { row: { line: 2, first_name: 'Ada', phone: '4155550100' } });
  t.same(trailing.toRow({ fields: ['Ada', '4155550100', 'x', ''], line: 3 }), {
    problems: [{ line: 3, reason: 'The row has 4 fields where the header has 2.' }],
  }, 'a value under a nameless column still refuses its row');
  t.throws(() => importColumns('contacts.csv', ['first_name', '', 'phone']), { message: /column 2 of the header has no name/ });
  t.throws(() => importColumns('contacts.csv', ['', '']), { message: /no first_name or phone column/ });
});

t.test('an extra cell with a value, or a missing cell, still makes the row refused', async (t) => {
  t.same(columns.toRow({ fields: ['Ada', '4155550100', '', 'x'], line: 2 }), {
    problems: [{ line: 2, reason: 'The row has 4 fields where the header has 3.' }],
  });
  t.same(columns.toRow({ fields: ['Ada', '4155550100', '', 'x', ''], line: 3 }), {
    problems: [{ line: 3, reason: 'The row has 5 fields where the header has 3.' }],
  });
  t.same(columns.toRow({ fields: ['Ada', '4155550100'], line: 4 }), {
    problems: [{ line: 4, reason: 'The row has 2 fields where the header has 3.' }],
  });
});

t.test('header names as exports write them: "First Name", "E-mail", "Phone Number" are the columns they say', async (t) => {
  const exported = importColumns('contacts.csv', [' First Name ', 'Last-Name', 'E-mail', 'Phone Number', 'STATUS', 'Owner ID', 'custom.Lead Source']);
  t.same(exported.customKeys, ['lead_source']);
  t.same(exported.toRow({ fields: ['Ada', 'Lovelace', 'ada@example.test', '4155550100', 'active', 'usr_1', 'web'], line: 2 }), {
    row: { line: 2, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.test', phone: '4155550100', status: 'active', owner_id: 'usr_1', custom_fields: { lead_source: 'web' } },
    bytes: 16 + 7 * 24 + 'AdaLovelaceada@example.test4155550100activeusr_1web'.length,
  });
  t.same(importColumns('contacts.csv', ['firstname', 'EmailAddress', 'phone_number']).toRow({ fields: ['Bob', 'bob@example.test', '1'], line: 3 }), {
    row: { line: 3, first_name: 'Bob', email: 'bob@example.test', phone: '1' },
    bytes: 16 + 3 * 24 + 'Bobbob@example.test1'.length,
  });
});

t.test('two names of one column are refused, saying which', async (t) => {
  t.throws(() => importColumns('contacts.csv', ['first_name', 'Phone', 'Phone Number']), { message: /the column phone appears twice, as "Phone" and "Phone Number"/ });
  t.throws(() => importColumns('contacts.csv', ['first_name', 'phone', 'phone']), { message: /the column "phone" appears twice/ });
  t.throws(() => importColumns('contacts.csv', ['first_name', 'phone', 'Nickname']), { message: /unknown column "Nickname"/ });
});

t.test('every unknown column is named in one refusal, not one per run', async (t) => {
  t.throws(() => importColumns('contacts.csv', ['Name', 'Given Name', 'Family Name', 'Phone 1 - Value', 'Notes']), {
    message: /unknown columns "Name", "Given Name", "Family Name", "Phone 1 - Value" and "Notes" \(remove them from the file, or name a contact field\)/,
  });
  t.throws(() => importColumns('contacts.csv', ['first_name', 'phone', 'Nickname']), { message: /unknown column "Nickname" \(remove it from the file/ });
});

t.test('a cell that breaks the file\'s encoding is refused naming that encoding', async (t) => {
  const columns = importColumns('people.csv', ['first_name', 'phone']);
  t.same(columns.toRow({ fields: ['A\u{fffd}', '1'], line: 2, notUtf8: 0, encoding: 'utf-16le' }), {
    problems: [{ line: 2, reason: 'first_name: not valid UTF-16LE text (save the file as UTF-8).', param: 'first_name' }],
  });
  t.match(columns.toRow({ fields: ['A', '\u{fffd}'], line: 3, notUtf8: 1, encoding: 'utf-8' }), { problems: [{ reason: 'phone: not valid UTF-8 text (save the file as UTF-8).' }] });
});

t.test('every cell a row is refused for while reading is listed, not only the first', async (t) => {
  const columns = importColumns('people.csv', ['first_name', 'phone', 'last_name', 'custom.note']);
  t.same(columns.toRow({ fields: ['A\u{fffd}', '1', 'Nul\0', 'x'.repeat(4001)], line: 2, notUtf8: 0, encoding: 'utf-8' }), {
    problems: [
      { line: 2, reason: 'first_name: not valid UTF-8 text (save the file as UTF-8).', param: 'first_name' },
      { line: 2, reason: 'last_name: must not contain NUL characters.', param: 'last_name' },
      { line: 2, reason: 'custom.note: longer than 4000 characters.', param: 'custom_fields.note' },
    ],
  });
});
