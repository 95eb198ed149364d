import type { ImportContactsResult, RowProblem } from '../../shared/contracts/contact-import.js';
import { PhoneFirstLines } from './phone-first-lines.js';

export interface ImportCounts {
  /** Data rows read (the header aside). */
  rows: number;
  /** New contacts. */
  created: number;
  /** Rows whose phone the workspace already had before this import. */
  skipped: number;
  /** Rows repeating the phone of an earlier row of the file (in any format). */
  duplicates: number;
  /** Rows refused, with a reason. */
  invalid: number;
}

/**
 * Adds up batch results, and tells a row that repeats an earlier row of the file from
 * one whose contact was there before, by remembering the first line of every phone.
 * Results are taken in file order; the database may still have taken a later row of a
 * phone first (concurrent batches), in which case the later row's contact is counted
 * for the first row and the later row is the duplicate, so the report does not depend
 * on timing. A re-run therefore lists the same rows as the first run.
 */
export class ImportTally {
  readonly counts: ImportCounts = { rows: 0, created: 0, skipped: 0, duplicates: 0, invalid: 0 };
  /** The first line of each phone in the file, and whether this run created its contact. */
  private readonly phones = new PhoneFirstLines();

  /** Takes one batch's result and the rows refused before sending; returns the problems to report, by line (a row's in their order). */
  add(result: ImportContactsResult, refusedLocally: RowProblem[]): RowProblem[] {
    const problems = [...refusedLocally, ...result.invalid];
    // A refused row has one entry per problem.
    const refusedRows = new Set(problems.map((problem) => problem.line)).size;
    this.counts.invalid += refusedRows;
    const valid = [...result.created.map((r) => ({ ...r, created: true })), ...result.skipped.map((r) => ({ ...r, created: false }))];
    valid.sort((a, b) => a.line - b.line);
    this.counts.rows += refusedRows + valid.length;

    for (const { line, phone, created } of valid) {
      const first = this.phones.get(phone);
      if (!first) {
        this.phones.set(phone, { line, created });
        this.counts[created ? 'created' : 'skipped']++;
        continue;
      }
      this.counts.duplicates++;
      problems.push({ line, reason: `phone ${phone} repeats line ${first.line}.`, param: 'phone' });
      if (created && !first.created) {
        this.phones.set(phone, { line: first.line, created: true });
        this.counts.skipped--;
        this.counts.created++;
      }
    }
    // Stable: the problems of a row stay in their order.
    return problems.sort((a, b) => a.line - b.line);
  }
}
