import t from 'tap';
import { ImportTally } from '../../cli/contact-import/import-tally.js';

const P = '+14155550100';
const Q = '+14155550101';

t.test('a phone seen before in the file is a duplicate of its first line, whatever the database says', async (t) => {
  const tally = new ImportTally();
  // Batch 1: line 2 created; line 3 skipped because the workspace had Q already.
  t.same(tally.add({ created: [{ line: 2, phone: P }], skipped: [{ line: 3, phone: Q }], invalid: [] }, []), []);
  // Batch 2: line 9 repeats P (skipped by the database), line 7 is invalid, line 8 was refused before sending.
  const problems = tally.add(
    { created: [], skipped: [{ line: 9, phone: P }], invalid: [{ line: 7, reason: 'first_name: is required', param: 'first_name' }] },
    [{ line: 8, reason: 'The row has 3 fields where the header has 2.' }],
  );
  t.same(problems.map((p) => p.line), [7, 8, 9], 'in line order');
  t.same(problems[2], { line: 9, reason: `phone ${P} repeats line 2.`, param: 'phone' });
  t.same(tally.counts, { rows: 5, created: 1, skipped: 1, duplicates: 1, invalid: 2 });
});

t.test('when a later batch won the insert, its contact counts for the first line', async (t) => {
  const tally = new ImportTally();
  // Batches in flight together: the database took line 1002's row first, so line 2 was skipped.
  tally.add({ created: [], skipped: [{ line: 2, phone: P }], invalid: [] }, []);
  t.same(tally.counts, { rows: 1, created: 0, skipped: 1, duplicates: 0, invalid: 0 });
  const problems = tally.add({ created: [{ line: 1002, phone: P }], skipped: [], invalid: [] }, []);
  t.same(problems, [{ line: 1002, reason: `phone ${P} repeats line 2.`, param: 'phone' }], 'the same report as without the race');
  t.same(tally.counts, { rows: 2, created: 1, skipped: 0, duplicates: 1, invalid: 0 });
});

t.test('a row refused for several problems is one invalid row, its problems listed together in their order', async (t) => {
  const tally = new ImportTally();
  const problems = tally.add(
    {
      created: [{ line: 3, phone: P }],
      skipped: [],
      invalid: [
        { line: 2, reason: 'email: must be an e-mail address', param: 'email' },
        { line: 2, reason: 'phone: "1" is not a valid phone number.', param: 'phone' },
        { line: 4, reason: 'first_name: is required', param: 'first_name' },
      ],
    },
    [],
  );
  t.same(problems.map((p) => [p.line, p.param]), [[2, 'email'], [2, 'phone'], [4, 'first_name']]);
  t.same(tally.counts, { rows: 3, created: 1, skipped: 0, duplicates: 0, invalid: 2 });
});
