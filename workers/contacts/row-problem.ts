import { IMPORT_COLUMNS, type RowProblem } from '../../shared/contracts/contact-import.js';
import type { CrmError } from '../../shared/errors.js';

/**
 * The most bytes a problem's reason and param take in the batch's reply, JSON escapes
 * included (a control character is six). A reason can echo a cell (a phone of up to 4,000
 * characters) or list a select field's options (150 of them are about 2 KB): uncut, a batch
 * of such rows is over the bus's 1 MiB, and its reply, after the batch committed, is lost.
 */
const REASON_MAX_BYTES = 400;
/** A param is a field name, `custom_fields.KEY` at most 78 bytes for a real key. */
const PARAM_MAX_BYTES = 100;
/**
 * The most bytes all the problems of one row take in the reply, as JSON with their commas.
 * The worst batch then fits: each of its at most 1,000 rows (IMPORT_BATCH_MAX_ROWS) is in
 * one list of the reply, an invalid one in at most this (its first problem,
 * `{"line":L,"reason":"R","param":"P"},`, alone is at most 8 + 16 (L is a safe integer) +
 * 12 + 400 + 11 + 100 + 2 = 549 bytes), a created or skipped one (`{"line":L,"phone":"+…"},`,
 * at most 15 digits) about 60. So 1,000 × 1,000 bytes, with the lists' names and the reply's
 * head under 100 more: within the 1,048,576 − 4,096 (MESSAGE_ENVELOPE_BYTES) a reply may have
 * on NATS's default limit. About ten problems of a usual length fit; past it one more says how
 * many are left out.
 */
const ROW_PROBLEMS_MAX_BYTES = 1000;
/** Room kept for that last one: `{"line":L,"reason":"…"},` with the words below, under 140 bytes. */
const LEFT_OUT_MAX_BYTES = 140;
const MORE = '…';
const MORE_BYTES = Buffer.byteLength(MORE);

/** The text, cut with "…" so that its JSON string's content is at most `maxBytes` of UTF-8. */
function cut(text: string, maxBytes: number): string {
  // No character takes more than six bytes in JSON: a short text needs no count.
  if (text.length * 6 <= maxBytes) return text;
  let bytes = 0;
  let fitsWithMore = 0;
  let end = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(JSON.stringify(char)) - 2;
    if (bytes > maxBytes) return text.slice(0, fitsWithMore) + MORE;
    end += char.length;
    if (bytes <= maxBytes - MORE_BYTES) fitsWithMore = end;
  }
  return text;
}

/** Why a row of an import batch was refused, as the batch's reply carries it. */
export function rowProblem(line: number, error: CrmError): RowProblem {
  const reason = cut(error.message, REASON_MAX_BYTES);
  return error.details.param === undefined ? { line, reason } : { line, reason, param: cut(error.details.param, PARAM_MAX_BYTES) };
}

/** A row's own fields in the order the errors file lists their problems; custom fields after them, in the order found. */
const FIELD_ORDER = new Map<string | undefined, number>(IMPORT_COLUMNS.map((column, index) => [column, index]));

/**
 * Every problem of a refused row, as the batch's reply carries them: one per field (the first
 * found), ordered by field, within {@link ROW_PROBLEMS_MAX_BYTES}.
 */
export function rowProblems(line: number, errors: CrmError[]): RowProblem[] {
  const byParam = new Map<string | undefined, CrmError>();
  for (const error of errors) if (!byParam.has(error.details.param)) byParam.set(error.details.param, error);
  const order = (error: CrmError) => FIELD_ORDER.get(error.details.param) ?? IMPORT_COLUMNS.length;
  // Stable: custom fields keep the order they were found in.
  const problems = [...byParam.values()].sort((a, b) => order(a) - order(b)).map((error) => rowProblem(line, error));
  const listed: RowProblem[] = [];
  let bytes = 0;
  for (const [index, problem] of problems.entries()) {
    const size = Buffer.byteLength(JSON.stringify(problem)) + 1;
    const room = index === problems.length - 1 ? ROW_PROBLEMS_MAX_BYTES : ROW_PROBLEMS_MAX_BYTES - LEFT_OUT_MAX_BYTES;
    // The first always fits (549 bytes at most).
    if (index > 0 && bytes + size > room) {
      const left = problems.length - index;
      listed.push({ line, reason: `${left} more problem${left === 1 ? '' : 's'} of this row not listed: fix those above and import it again.` });
      break;
    }
    listed.push(problem);
    bytes += size;
  }
  return listed;
}
