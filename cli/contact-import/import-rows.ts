import type { ImportContactsResult, ImportedContactRow, RowProblem } from '../../shared/contracts/contact-import.js';
import type { CsvRecord } from './csv-records.js';
import type { ErrorsFile } from './errors-file.js';
import type { ImportColumns } from './import-columns.js';
import type { ImportProgress } from './import-progress.js';
import { ImportTally, type ImportCounts } from './import-tally.js';

/**
 * Batches being written at once. A few keep the worker busy while this process reads and
 * encodes the next batch; more would only queue (two cores serve everything here). The
 * file is read no faster than batches are answered, so memory stays bounded.
 */
const MAX_BATCHES_IN_FLIGHT = 3;
/**
 * Cell bytes per batch: with JSON's overhead, well under NATS's default 1 MB message. A row
 * that would take a batch past it goes in the next one, so a batch holds at most this or a
 * single row (at most IMPORT_ROW_MAX_BYTES, 512 KB).
 */
const BATCH_MAX_BYTES = 256 * 1024;

interface Batch {
  rows: ImportedContactRow[];
  /** Rows refused before sending (wrong number of fields, an oversized cell). */
  refused: RowProblem[];
  bytes: number;
  /** Bytes of the file up to this batch's last row, for the progress. */
  endByte: number;
}

type Answer = { batch: Batch; result: ImportContactsResult } | { batch: Batch; error: unknown };

const NOTHING_SENT: ImportContactsResult = { created: [], skipped: [], invalid: [] };

export interface ImportRowsOptions {
  records: AsyncIterable<CsvRecord>;
  columns: ImportColumns;
  batchSize: number;
  send(rows: ImportedContactRow[]): Promise<ImportContactsResult>;
  errors: ErrorsFile;
  progress: ImportProgress;
  /** Aborted (a signal): stop reading, and finish the batches already sent. */
  stop?: AbortSignal;
}

export interface ImportOutcome {
  counts: ImportCounts;
  /** What stopped the import before the end of the file: a batch not written, or the file. */
  failure?: unknown;
  /** The first line of the batch that failed: every row before it is done, rows from it on may not be. */
  failedFromLine?: number;
  /** Stopped by `stop`: the rows read before it are done. */
  interrupted?: boolean;
}

/**
 * Streams the file's records into batches with a bounded number in flight, and takes
 * the answers in file order, so the errors file is in line order. On a failure (a batch
 * that cannot be written, an unreadable file) or `stop`, it stops reading and sending,
 * still takes the answers of batches already sent, and reports what was done.
 */
export async function importRows(options: ImportRowsOptions): Promise<ImportOutcome> {
  const { records, columns, batchSize, send, errors, progress, stop } = options;
  const tally = new ImportTally();
  const inFlight: Promise<Answer>[] = [];
  let failure: unknown;
  let failedFromLine: number | undefined;
  let batch: Batch = { rows: [], refused: [], bytes: 0, endByte: 0 };

  const takeOldestAnswer = async () => {
    const answer = await (inFlight.shift() as Promise<Answer>);
    if ('error' in answer) {
      if (failure === undefined) {
        failure = answer.error;
        failedFromLine = Math.min(answer.batch.rows[0]?.line ?? Infinity, answer.batch.refused[0]?.line ?? Infinity);
      }
      // Its rows refused here are refused whatever became of the batch: still reported.
      await errors.add(tally.add(NOTHING_SENT, answer.batch.refused));
      return;
    }
    await errors.add(tally.add(answer.result, answer.batch.refused));
    progress.update({ bytes: answer.batch.endByte, rows: tally.counts.rows });
  };

  const dispatch = async () => {
    if (batch.rows.length === 0 && batch.refused.length === 0) return;
    while (inFlight.length >= MAX_BATCHES_IN_FLIGHT) await takeOldestAnswer();
    // A batch answered while waiting failed: nothing more goes out, so the rows done end before it.
    if (failure !== undefined) return;
    const sending = batch;
    batch = { rows: [], refused: [], bytes: 0, endByte: sending.endByte };
    // Never a rejected promise waiting in the queue: the failure is kept as a value.
    const sent = sending.rows.length === 0 ? Promise.resolve(NOTHING_SENT) : send(sending.rows);
    inFlight.push(sent.then((result) => ({ batch: sending, result }), (error: unknown) => ({ batch: sending, error })));
  };

  let readFailure: unknown;
  let interrupted = false;
  try {
    for await (const record of records) {
      const read = columns.toRow(record);
      if ('problems' in read) {
        batch.refused.push(...read.problems);
      } else {
        if (batch.rows.length > 0 && batch.bytes + read.bytes > BATCH_MAX_BYTES) await dispatch();
        batch.rows.push(read.row);
        batch.bytes += read.bytes;
      }
      batch.endByte = record.endByte;
      if (batch.rows.length >= batchSize || batch.bytes >= BATCH_MAX_BYTES) await dispatch();
      if (failure !== undefined) break;
      if (stop?.aborted) {
        interrupted = true;
        break;
      }
    }
  } catch (error) {
    readFailure = error;
  }
  // The rows read before a syntax error or a stop are whole rows: they are written too, so the report's count is exact.
  try {
    await dispatch();
  } catch (error) {
    readFailure ??= error;
  }
  while (inFlight.length > 0) await takeOldestAnswer();
  if (failure !== undefined) return { counts: tally.counts, failure, ...(failedFromLine === undefined ? {} : { failedFromLine }) };
  if (readFailure !== undefined) return { counts: tally.counts, failure: readFailure };
  return interrupted ? { counts: tally.counts, interrupted } : { counts: tally.counts };
}
