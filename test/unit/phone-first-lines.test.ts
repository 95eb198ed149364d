import t from 'tap';
import { PhoneFirstLines } from '../../cli/contact-import/phone-first-lines.js';

t.test('remembers the first line of every phone, through growth, as a Map would', async (t) => {
  const table = new PhoneFirstLines();
  const reference = new Map<string, { line: number; created: boolean }>();
  // 50,000 phones of one area (they differ only in their last digits) and some of every length E.164 allows.
  const phones = [
    ...Array.from({ length: 50_000 }, (_, i) => `+1212${String(i).padStart(7, '0')}`),
    ...Array.from({ length: 14 }, (_, i) => `+${'9'.repeat(i + 2)}`),
    '+999999999999999',
    '+12',
  ];
  phones.forEach((phone, i) => {
    const first = { line: i + 2, created: i % 3 === 0 };
    table.set(phone, first);
    reference.set(phone, first);
  });
  t.equal(table.size, reference.size);
  let mismatches = 0;
  for (const [phone, first] of reference) if (JSON.stringify(table.get(phone)) !== JSON.stringify(first)) mismatches++;
  t.equal(mismatches, 0, 'every phone reads back its line and flag');
  t.equal(table.get('+12125550000'), undefined, 'a phone never set is not there');
  t.equal(table.get('+1212000000'), undefined, 'a prefix of a phone set is another phone');
});

t.test('a phone set again keeps one entry with the new flag', async (t) => {
  const table = new PhoneFirstLines();
  table.set('+14155550100', { line: 2, created: false });
  table.set('+14155550100', { line: 2, created: true });
  t.same(table.get('+14155550100'), { line: 2, created: true });
  t.equal(table.size, 1);
});

t.test('a phone that is not E.164 is still remembered, apart', async (t) => {
  const table = new PhoneFirstLines();
  table.set('+012', { line: 3, created: true });
  table.set('12', { line: 4, created: false });
  table.set('+12', { line: 5, created: false });
  t.same([table.get('+012'), table.get('12'), table.get('+12')], [
    { line: 3, created: true },
    { line: 4, created: false },
    { line: 5, created: false },
  ]);
  t.equal(table.size, 3);
});

t.test('a line beyond what the table holds is refused, not wrapped', async (t) => {
  const table = new PhoneFirstLines();
  t.throws(() => table.set('+14155550100', { line: 2 ** 32, created: false }), RangeError);
  t.throws(() => table.set('+14155550100', { line: 0, created: false }), RangeError);
  t.equal(table.size, 0);
});
