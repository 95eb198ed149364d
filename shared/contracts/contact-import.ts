import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';

/** The columns an import file may have besides `custom.<key>` ones; first_name and phone are required. */
export const IMPORT_COLUMNS = ['first_name', 'last_name', 'email', 'phone', 'status', 'owner_id'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export const REQUIRED_IMPORT_COLUMNS: readonly ImportColumn[] = ['first_name', 'phone'];

/** A column named `custom.lead_source` fills the contact custom field `lead_source`. */
export const CUSTOM_COLUMN_PREFIX = 'custom.';

/** Rows per `contacts.import` call: bounds one INSERT's parameters and one bus message. */
export const IMPORT_BATCH_MAX_ROWS = 1000;

/**
 * The longest cell a batch carries. Longer than any contact field accepts (custom text
 * allows 2,000), so the worker still gives the precise reason for anything shorter;
 * the command refuses longer cells itself, so one row never fails a whole batch.
 */
export const IMPORT_CELL_MAX_CHARS = 4000;

const Cell = z.string().max(IMPORT_CELL_MAX_CHARS);
const Line = z.number().int().min(1).describe('Line of the file where the row starts; the header is line 1 (2 after a sep= line)');

/**
 * One CSV row as read: every cell is text, an absent or empty cell means "no value".
 * The worker checks it like POST /v1/contacts, so the cells stay raw here: one bad
 * row must come back as that row's reason, never as the whole batch's 400.
 */
export const ImportedContactRow = z.strictObject({
  line: Line,
  first_name: Cell.optional(),
  last_name: Cell.optional(),
  email: Cell.optional(),
  phone: Cell.optional(),
  status: Cell.optional(),
  owner_id: Cell.optional(),
  /** By field key (without the `custom.` prefix); text converted by the field's type. */
  custom_fields: z.record(z.string().max(64), Cell).optional(),
});
export type ImportedContactRow = z.infer<typeof ImportedContactRow>;

export const ImportContactsInput = z.strictObject({
  rows: z.array(ImportedContactRow).min(1).max(IMPORT_BATCH_MAX_ROWS),
});

const RowPhone = z.object({ line: Line, phone: z.string().describe('E.164') });
export type RowPhone = z.infer<typeof RowPhone>;

/** One problem of a refused row: a row with several has one entry for each, consecutive, under its line. */
export const RowProblem = z.object({
  line: Line,
  reason: z.string(),
  param: z.string().optional().describe('The field at fault, as in a 400 of POST /v1/contacts'),
});
export type RowProblem = z.infer<typeof RowProblem>;

export const ImportContactsResult = z.object({
  created: z.array(RowPhone).describe('Rows written as new contacts'),
  skipped: z.array(RowPhone).describe('Valid rows not written: their phone is already in the workspace, or on an earlier row of this batch'),
  invalid: z.array(RowProblem).describe('Rows refused: each problem of a row (one per field, with the reason POST /v1/contacts would give for it), in line order'),
});
export type ImportContactsResult = z.infer<typeof ImportContactsResult>;

/**
 * A batch of `crm import contacts`. Rows are checked like contacts.create, then the valid
 * ones are written in one statement; the workspace's phone uniqueness decides what is
 * skipped, so the same rows sent again (a re-run, a retried batch, a concurrent import)
 * never create a second contact. With an idempotency key (the command sends one per run
 * and batch) a batch sent again replays the first answer, which reported its rows as
 * created; without one it would report them as skipped.
 */
export const importContacts = defineOperation({
  worker: 'contacts',
  resource: 'contacts',
  verb: 'import',
  scope: 'contacts:write',
  idempotent: true,
  input: ImportContactsInput,
  output: ImportContactsResult,
});
