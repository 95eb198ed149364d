import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import type { ImportContactsResult, ImportedContactRow } from '../../shared/contracts/contact-import.js';
import type { CsvRecord } from '../../cli/contact-import/csv-records.js';
import { ErrorsFile } from '../../cli/contact-import/errors-file.js';
import { importColumns } from '../../cli/contact-import/import-columns.js';
import { ImportProgress } from '../../cli/contact-import/import-progress.js';
import { importRows } from '../../cli/contact-import/import-rows.js';

const dir = await mkdtemp(path.join(tmpdir(), 'import-rows-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const columns = importColumns('f.csv', ['first_name', 'phone']);
const quiet = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;

/** Data rows on lines 2 to 11; line 5 has a field too many. */
async function* records(onRead?: (line: number) => void): AsyncGenerator<CsvRecord> {
  for (let line = 2; line <= 11; line++) {
    onRead?.(line);
    yield { fields: line === 5 ? ['Bad', '1', 'x'] : [`Name${line}`, `+1212555${String(line).padStart(4, '0')}`], line, endByte: line * 10 };
  }
}

const created = (rows: ImportedContactRow[]): ImportContactsResult => ({ created: rows.map((r) => ({ line: r.line, phone: r.phone ?? '' })), skipped: [], invalid: [] });

t.test('after a batch fails nothing more is sent; its rows refused here are still reported', async (t) => {
  const errorsPath = path.join(dir, 'failed.errors.csv');
  const errors = await ErrorsFile.create(errorsPath);
  const sent: number[][] = [];
  const outcome = await importRows({
    records: records(),
    columns,
    batchSize: 2,
    send: async (rows) => {
      sent.push(rows.map((r) => r.line));
      await new Promise((resolve) => setImmediate(resolve));
      if (rows[0]?.line === 4) throw new Error('boom');
      return created(rows);
    },
    errors,
    progress: new ImportProgress(quiet, 110),
  });
  await errors.close();
  // The batch from line 9 left before the failure was known; line 11's batch, dispatched after, did not.
  t.same(sent, [
    [2, 3],
    [4, 6],
    [7, 8],
    [9, 10],
  ]);
  t.match(outcome, { failure: { message: 'boom' }, failedFromLine: 4 });
  t.same(outcome.counts, { rows: 7, created: 6, skipped: 0, duplicates: 0, invalid: 1 });
  t.equal(await readFile(errorsPath, 'utf8'), 'line,field,reason\n5,,The row has 3 fields where the header has 2.\n');
});

t.test('a stop ends the reading; every row read is sent and counted', async (t) => {
  const errors = await ErrorsFile.create(path.join(dir, 'stopped.errors.csv'));
  const stop = new AbortController();
  const sent: number[] = [];
  const outcome = await importRows({
    records: records((line) => line === 7 && stop.abort()),
    columns,
    batchSize: 2,
    send: async (rows) => {
      sent.push(...rows.map((r) => r.line));
      return created(rows);
    },
    errors,
    progress: new ImportProgress(quiet, 110),
    stop: stop.signal,
  });
  await errors.close();
  t.same(sent, [2, 3, 4, 6, 7]);
  t.same(outcome, { counts: { rows: 6, created: 5, skipped: 0, duplicates: 0, invalid: 1 }, interrupted: true });
});
