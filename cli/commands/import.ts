import { stat } from 'node:fs/promises';
import path from 'node:path';
import { IMPORT_BATCH_MAX_ROWS } from '../../shared/contracts/contact-import.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { NotFoundError } from '../../shared/errors.js';
import { optional, parseCommandArgs, required } from '../args.js';
import { contactFieldKeys } from '../contact-import/contact-field-keys.js';
import { csvRecords } from '../contact-import/csv-records.js';
import { ErrorsFile } from '../contact-import/errors-file.js';
import { importSender } from '../contact-import/import-bus.js';
import { ImportStoppedError } from '../contact-import/import-stopped-error.js';
import { checkCustomFieldColumns, importColumns } from '../contact-import/import-columns.js';
import { ImportProgress } from '../contact-import/import-progress.js';
import { importRows, type ImportOutcome } from '../contact-import/import-rows.js';
import type { ImportSummary } from '../contact-import/import-summary.js';
import { printJson, printLines } from '../output.js';
import { untilInterrupted } from '../event-tail/interruption.js';
import { UsageError } from '../usage-error.js';
import { withLocalServices } from '../with-local-services.js';

const DEFAULT_BATCH_SIZE = 500;

/**
 * The import ran to its end but some rows are in the errors file: a script's `&&` must not read
 * that as success, nor as a failure of the command (1), after which nothing would be imported.
 */
export const ROWS_NOT_IMPORTED_EXIT_CODE = 3;

export const usage = `Usage: crm import contacts FILE.csv --workspace WORKSPACE [--errors FILE] [--batch-size N] [--json]

Imports contacts from a CSV file (UTF-8, or UTF-16 as Excel's "Unicode Text" saves
it; the first row names the columns, separated by commas, or by semicolons or tabs as
spreadsheets in many countries save them, which the header row shows; Excel's "sep=;"
first line is read too), reading it as a stream and writing it in batches. Columns, in any order:

  first_name   required
  phone        required; any common format, stored as E.164 (without a country
               code the workspace's default_country applies)
  last_name, email, status (active or archived; default active),
  owner_id     a member of the workspace (usr_…)
  custom.KEY   the contact custom field KEY, e.g. custom.lead_source, stored as
               POST /v1/contacts stores the typed value: text as is; number as
               JSON writes one (42, -4.5, 1e3; a + too; no thousands
               separators); boolean true or false in any case (TRUE); date
               YYYY-MM-DD; select one of its options, case ignored (Web for
               web, as over REST)

Column names are read without case, spaces, hyphens and underscores ("First Name",
"E-mail" and "Owner ID" name first_name, email and owner_id); "Phone Number" and
"Email Address" name phone and email.

An empty cell is no value, a row of empty cells (",,,") is skipped like an empty
line, and empty cells after the last column (a comma at the end of a row) are
ignored. Any other column, a custom field the workspace does not have, no column
for a required one, or an errors file that cannot be written, stops the command
before anything is imported (exit 2).

Each row is checked like POST /v1/contacts. A row whose phone the workspace already
has is skipped, so running the same file again (e.g. after an interruption) adds only
what is missing. Rows that cannot be imported, and rows repeating the phone of an
earlier row, are listed as line,field,reason in the errors file (default: FILE.errors.csv
next to FILE; "line" is the line of the file where the row starts, the header is line 1, or 2
after a sep= line). A row is listed with every problem it has, one line each under its line
number, its own fields first, then its custom fields (field custom_fields.KEY).

  --workspace     a workspace id (ws_…) or name
  --errors FILE   where to write the rows that were not imported
  --batch-size N  rows per batch, 1 to ${IMPORT_BATCH_MAX_ROWS} (default ${DEFAULT_BATCH_SIZE})
  --json          print the summary as one JSON object on stdout, also when the
                  import stops part-way ("outcome": "interrupted" or "failed",
                  with the counts of what was done)

FILE may also be a pipe, e.g. <(gunzip -c contacts.csv.gz), with --errors FILE (a
pipe has no folder for the default); the progress then shows rows and rows/s
without a share of the file or an ETA.

Exit codes: 0 when every row was imported or already present; ${ROWS_NOT_IMPORTED_EXIT_CODE} when the import
ran to its end but rows are listed in the errors file (the rest are imported); 1 when
it failed (a file or workspace not found) or stopped part-way (the message says what is
done); 2 for a mistake in the command or the file's columns (nothing imported); 130 when
interrupted.

Progress goes to stderr (a bar on a terminal). With NATS_URL set, the batches are
written by the running contacts workers ("crm worker contacts"); without it, by this
command itself.`;

export type { ImportSummary };

export async function run(argv: string[]): Promise<void> {
  const [what, ...rest] = argv;
  if (what === '--help' || what === '-h') return printLines(usage);
  if (what !== 'contacts') {
    throw new UsageError(what ? `Cannot import "${what}": only contacts can be imported.` : 'Say what to import: crm import contacts FILE.csv.', usage);
  }
  const args = parseCommandArgs(
    rest,
    { workspace: { type: 'string' }, errors: { type: 'string' }, 'batch-size': { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  if (args.positionals.length !== 1) throw new UsageError('Give exactly one CSV file to import.', usage);
  const file = path.resolve(args.positionals[0] as string);
  const workspaceRef = required(args, 'workspace', usage);
  const errorsPath = path.resolve(optional(args, 'errors') ?? defaultErrorsPath(file));
  if (errorsPath === file) throw new UsageError('The errors file cannot be the file being imported.', usage);
  const batchSize = batchSizeFrom(optional(args, 'batch-size'));

  const size = await stat(file).catch(() => null);
  if (!size) throw new NotFoundError('file', args.positionals[0]);
  if (size.isDirectory()) throw new UsageError(`${file} is a directory: give the CSV file to import.`, usage);
  // Checked before the pipe is read: it cannot be read a second time.
  if (!size.isFile() && optional(args, 'errors') === undefined) {
    throw new UsageError(`${file} is not a regular file (a pipe?): give --errors FILE for the list of rows not imported. Nothing was imported.`, usage);
  }
  // Another name for the same file (a link) too: opening the errors file would empty the file being read.
  const errorsTarget = await stat(errorsPath).catch(() => null);
  if (errorsTarget?.dev === size.dev && errorsTarget.ino === size.ino) throw new UsageError('The errors file cannot be the file being imported.', usage);

  // The header is checked before anything is opened: a wrong column fails at once.
  const records = csvRecords(file);
  let summary: ImportSummary;
  try {
    const header = await records.next();
    if (header.done) throw new UsageError(`${file} is empty: its first row must name the columns. Nothing was imported.`);
    if (header.value.notUtf8 !== undefined) throw new UsageError(`${file} is not UTF-8 text (its header row is not): save it as UTF-8 (or UTF-16). Nothing was imported.`);
    const columns = importColumns(file, header.value.fields);

    summary = await withLocalServices(async (services) => {
      const { context, workspace } = await services.inWorkspace(workspaceRef);
      checkCustomFieldColumns(file, columns, await contactFieldKeys(services, context));

      // The import writes contacts and needs nothing else.
      const writer: CallContext = { ...context, principal: { type: 'operator', scopes: ['contacts:write'] } };
      const send = await importSender(services, writer);
      const errors = await openErrorsFile(errorsPath);
      const started = performance.now();
      // A pipe (`<(gunzip -c contacts.csv.gz)`) is read like a file, but its size is not known ahead.
      const progress = new ImportProgress(process.stderr, size.isFile() ? size.size : undefined, started);
      // From here a signal stops the reading; the batches sent are answered and reported (a second signal kills).
      const stop = untilInterrupted();
      try {
        const outcome = await importRows({ records, columns, batchSize, send, errors, progress, stop });
        const { counts } = outcome;
        const seconds = (performance.now() - started) / 1000;
        const done: ImportSummary = {
          object: 'contact_import',
          outcome: outcome.failure !== undefined ? 'failed' : outcome.interrupted ? 'interrupted' : 'completed',
          workspace_id: workspace.id,
          file,
          ...counts,
          errors_file: errorsPath,
          seconds: Math.round(seconds * 100) / 100,
          rows_per_second: Math.round(counts.rows / seconds),
        };
        if (done.outcome !== 'completed') throw stoppedError(outcome, errorsPath, done);
        return done;
      } finally {
        progress.finish();
        await errors.close();
      }
    }, 'crm import');
  } catch (error) {
    if (!(error instanceof ImportStoppedError)) throw error;
    // A script reading --json gets what was done either way; the message still goes to stderr.
    if (args.values.json && error.summary) printJson(error.summary);
    // Interrupted: the exit code a shell expects; not an error of the command.
    if (error.exitCode !== 130) throw error;
    process.stderr.write(`crm: ${error.message}\n`);
    process.exitCode = error.exitCode;
    return;
  } finally {
    // Closes the file when the import stopped before its end.
    await records.return(undefined);
  }

  const listed = summary.duplicates + summary.invalid;
  if (listed > 0) process.exitCode = ROWS_NOT_IMPORTED_EXIT_CODE;
  if (args.values.json) return printJson(summary);
  printLines(
    `Imported ${summary.rows.toLocaleString('en')} rows into ${summary.workspace_id} in ${summary.seconds.toFixed(1)} s (${summary.rows_per_second.toLocaleString('en')} rows/s):`,
    `  ${summary.created.toLocaleString('en')} created`,
    `  ${summary.skipped.toLocaleString('en')} skipped: the phone was already in the workspace`,
    `  ${summary.duplicates.toLocaleString('en')} duplicates: the phone of an earlier row of the file`,
    `  ${summary.invalid.toLocaleString('en')} invalid`,
    listed > 0 ? `Rows not imported (${listed.toLocaleString('en')}) are listed in ${summary.errors_file}` : 'Every row was imported or already present.',
  );
}

/** contacts.csv → contacts.errors.csv, next to it. */
function defaultErrorsPath(file: string): string {
  const { dir, name, ext } = path.parse(file);
  return path.join(dir, `${ext.toLowerCase() === '.csv' ? name : name + ext}.errors.csv`);
}

/** The errors file, or why it cannot be written (a missing folder, no permission), said as such: nothing is sent before it opens. */
async function openErrorsFile(errorsPath: string): Promise<ErrorsFile> {
  try {
    return await ErrorsFile.create(errorsPath);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'its folder does not exist' : error instanceof Error ? error.message : String(error);
    throw new UsageError(`Cannot write the errors file ${errorsPath}: ${reason}. Choose another with --errors FILE. Nothing was imported.`);
  }
}

function batchSizeFrom(text: string | undefined): number {
  if (text === undefined) return DEFAULT_BATCH_SIZE;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > IMPORT_BATCH_MAX_ROWS) throw new UsageError(`--batch-size must be a whole number from 1 to ${IMPORT_BATCH_MAX_ROWS}.`, usage);
  return n;
}

/** Why the import stopped, with what it did: rows already imported are skipped next time. */
function stoppedError({ counts, failure, failedFromLine, interrupted }: ImportOutcome, errorsPath: string, summary: ImportSummary): ImportStoppedError {
  const n = (count: number) => count.toLocaleString('en');
  const done = `${n(counts.created)} created, ${n(counts.skipped)} skipped, ${n(counts.duplicates)} duplicates and ${n(counts.invalid)} invalid (listed in ${errorsPath})`;
  const again = 'run the same command again: rows already imported are skipped.';
  if (failure === undefined && interrupted) {
    const message = `The import was interrupted.\nThe ${n(counts.rows)} rows read before that are done: ${done}. To import the rest, ${again}`;
    return new ImportStoppedError(null, message, 130, { ...summary, error: message });
  }
  const reason = failure instanceof Error ? failure.message : String(failure);
  // Batches sent after the one that failed were still answered: their rows are done too, so the count is not a prefix of the file.
  const what =
    failedFromLine === undefined
      ? `The ${n(counts.rows)} rows before that are done: ${done}.`
      : `${n(counts.rows)} rows are done: ${done}. The rows before line ${failedFromLine} are all among them; rows from there on may not be.`;
  const message = `The import stopped: ${reason}\n${what} Fix the problem and ${again}`;
  return new ImportStoppedError(failure, message, 1, { ...summary, error: message });
}
