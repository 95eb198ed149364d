import {
  CUSTOM_COLUMN_PREFIX,
  IMPORT_CELL_MAX_CHARS,
  IMPORT_COLUMNS,
  REQUIRED_IMPORT_COLUMNS,
  type ImportColumn,
  type ImportedContactRow,
  type RowProblem,
} from '../../shared/contracts/contact-import.js';
import { nullPrototypeRecord } from '../../shared/null-prototype.js';
import { UsageError } from '../usage-error.js';
import type { CsvRecord } from './csv-records.js';

/** The workspace's contact custom fields, by key. */
export interface ContactFieldKeys {
  active: ReadonlySet<string>;
  archived: ReadonlySet<string>;
  /** Active fields every new contact must have. */
  required: ReadonlySet<string>;
}

type Column = { field: ImportColumn } | { customKey: string };

/** How the cells of a record become a batch row, as the file's header says. */
export interface ImportColumns {
  /** The custom field keys the file fills (`custom.KEY` columns). */
  customKeys: string[];
  /** A row to send, or why the record cannot be sent at all (every cell refused, each its problem). */
  toRow(record: Pick<CsvRecord, 'fields' | 'line' | 'notUtf8' | 'encoding'>): { row: ImportedContactRow; bytes: number } | { problems: RowProblem[] };
}

function refusal(file: string, problem: string, columns: string): UsageError {
  return new UsageError(`${file}: ${problem} Columns are ${IMPORT_COLUMNS.join(', ')}, and ${columns}. Nothing was imported.`);
}

const ANY_CUSTOM = `${CUSTOM_COLUMN_PREFIX}KEY for a contact custom field of the workspace`;

/**
 * The column a header name stands for, read as exports and people write them: "First Name",
 * "E-mail", "Phone Number" and first_name are one column. Case, spaces, hyphens and
 * underscores do not count; the two longer names are what address books export.
 */
const COLUMN_BY_NAME = new Map<string, ImportColumn>([
  ...IMPORT_COLUMNS.map((column) => [column.replace(/_/g, ''), column] as const),
  ['phonenumber', 'phone'],
  ['emailaddress', 'email'],
]);

/** The import column or custom field key a header name stands for, or undefined for neither. */
function columnNamed(written: string): Column | undefined {
  const name = written.trim().toLowerCase();
  // custom.Lead Source is the key lead_source: keys are lower snake case.
  if (name.startsWith(CUSTOM_COLUMN_PREFIX)) return { customKey: name.slice(CUSTOM_COLUMN_PREFIX.length).trim().replace(/[\s-]+/g, '_') };
  const field = COLUMN_BY_NAME.get(name.replace(/[\s_-]+/g, ''));
  return field === undefined ? undefined : { field };
}

/** What two header names standing for one column have in common. */
function columnId(column: Column): string {
  return 'field' in column ? column.field : CUSTOM_COLUMN_PREFIX + column.customKey;
}

/**
 * The most bytes one row may take in a batch. Any contact is far smaller (its custom field
 * values are at most 300 KB as JSON, its other fields a few hundred bytes), so a larger row
 * is refused here: sent, even alone in its batch, it could be over the bus's 1 MiB message
 * and stop the whole import.
 */
export const IMPORT_ROW_MAX_BYTES = 512 * 1024;

/** Bytes of a cell as the batch carries it: UTF-8 in a JSON string, where a control character takes six and a quote two. */
function jsonBytes(text: string): number {
  // eslint-disable-next-line no-control-regex -- the characters JSON escapes are the point
  return /[\u0000-\u001f"\\]/.test(text) ? Buffer.byteLength(JSON.stringify(text)) - 2 : Buffer.byteLength(text);
}

/**
 * Reads the header row. A column the import would not store is refused before anything
 * is read or written (exit 2): an unknown or repeated one, a missing first_name or phone.
 * Names are compared without case, spaces, hyphens and underscores ({@link columnNamed}). The custom fields named are
 * checked against the workspace by {@link checkCustomFieldColumns}.
 */
export function importColumns(file: string, header: string[]): ImportColumns {
  const columns: Column[] = [];
  const seen = new Map<string, string>();
  // All of them at once: an address book's export has dozens, and one per run would take as many runs to find.
  const unknown: string[] = [];
  // Spreadsheets save blank names after the last column (one formatted but left empty): no column,
  // as a row's empty cells past the last one are no value. A blank between names is still refused.
  let named = header.length;
  while (named > 0 && (header[named - 1] as string).trim() === '') named--;
  for (const [index, written] of header.slice(0, named).entries()) {
    if (written.trim() === '') throw refusal(file, `column ${index + 1} of the header has no name: name it, or remove the column.`, ANY_CUSTOM);
    const column = columnNamed(written);
    if (column === undefined) {
      unknown.push(`"${written}"`);
      continue;
    }
    const id = columnId(column);
    const earlier = seen.get(id);
    if (earlier !== undefined) {
      throw refusal(file, earlier === written ? `the column "${written}" appears twice.` : `the column ${id} appears twice, as "${earlier}" and "${written}".`, ANY_CUSTOM);
    }
    seen.set(id, written);
    columns.push(column);
  }
  if (unknown.length > 0) {
    const names = unknown.length === 1 ? unknown[0] : `${unknown.slice(0, -1).join(', ')} and ${unknown.at(-1)}`;
    throw refusal(file, `unknown column${unknown.length === 1 ? '' : 's'} ${names} (remove ${unknown.length === 1 ? 'it' : 'them'} from the file, or name a contact field).`, ANY_CUSTOM);
  }
  const missing = REQUIRED_IMPORT_COLUMNS.filter((c) => !seen.has(c));
  if (missing.length > 0) throw refusal(file, `the header has no ${missing.join(' or ')} column (the first row must name the columns).`, ANY_CUSTOM);

  return {
    customKeys: columns.flatMap((c) => ('customKey' in c ? [c.customKey] : [])),
    toRow: ({ fields, line, notUtf8, encoding }) => {
      // A comma at the end of the line (some exports write one on every row) adds a cell with no value, not a column.
      let cells = fields.length;
      while (cells > columns.length && (fields[cells - 1] as string).trim() === '') cells--;
      if (cells !== columns.length) {
        return { problems: [{ line, reason: `The row has ${fields.length} fields where the header has ${columns.length}.` }] };
      }
      const problems: RowProblem[] = [];
      const refuse = (column: Column, reason: string) => {
        const [name, param] = 'field' in column ? [column.field, column.field] : [CUSTOM_COLUMN_PREFIX + column.customKey, `custom_fields.${column.customKey}`];
        problems.push({ line, reason: `${name}: ${reason}`, param });
      };
      // Stored, the replacement characters would pass for the row's text.
      if (notUtf8 !== undefined) refuse(columns[notUtf8] as Column, `not valid ${(encoding ?? 'utf-8').toUpperCase()} text (save the file as UTF-8).`);
      const row: ImportedContactRow = { line };
      let bytes = 16;
      for (let i = 0; i < columns.length; i++) {
        const value = fields[i] as string;
        // Only to keep batches small: the worker already reads a blank cell as no value, and its rule is the one that counts.
        if (value === '' || i === notUtf8) continue;
        const column = columns[i] as Column;
        if (value.length > IMPORT_CELL_MAX_CHARS) {
          refuse(column, `longer than ${IMPORT_CELL_MAX_CHARS} characters.`);
          continue;
        }
        // The worker refuses a whole batch holding NUL (Postgres text cannot store it) before checking its rows. Text
        // decoded from UTF-8 has no unpaired surrogate, the other such text.
        if (value.includes('\0')) {
          refuse(column, 'must not contain NUL characters.');
          continue;
        }
        if ('field' in column) row[column.field] = value;
        else (row.custom_fields ??= nullPrototypeRecord<string>())[column.customKey] = value;
        // As the batch travels: a character of many scripts is three bytes, an escaped one up to six.
        bytes += jsonBytes(value) + 24;
      }
      if (problems.length > 0) return { problems };
      if (bytes > IMPORT_ROW_MAX_BYTES) return { problems: [{ line, reason: `The row takes more than ${IMPORT_ROW_MAX_BYTES / 1024} KiB: no contact is that large.` }] };
      return { row, bytes };
    },
  };
}

/**
 * Every `custom.KEY` column must name an active contact custom field of the workspace, and
 * every required one must have its column: without it each row would be refused (exit 2 otherwise).
 */
export function checkCustomFieldColumns(file: string, columns: ImportColumns, keys: ContactFieldKeys): void {
  const theirs = keys.active.size > 0 ? `${CUSTOM_COLUMN_PREFIX}KEY for these custom fields: ${[...keys.active].join(', ')}` : 'no custom fields (the workspace has none)';
  for (const key of columns.customKeys) {
    const column = `"${CUSTOM_COLUMN_PREFIX}${key}"`;
    if (keys.archived.has(key)) throw refusal(file, `the column ${column} names an archived custom field; restore it or leave the column out.`, theirs);
    if (!keys.active.has(key)) throw refusal(file, `the column ${column} names no contact custom field of the workspace.`, theirs);
  }
  const missing = [...keys.required].filter((key) => !columns.customKeys.includes(key)).map((key) => `"${CUSTOM_COLUMN_PREFIX}${key}"`);
  if (missing.length > 0) {
    throw refusal(file, `the header has no ${missing.join(' or ')} column, which every contact of the workspace must have: each row would be refused.`, theirs);
  }
}
