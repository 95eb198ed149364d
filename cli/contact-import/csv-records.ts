import { isUtf8 } from 'node:buffer';
import { pipeline, Readable } from 'node:stream';
import { parse, type CsvError, type Info } from 'csv-parse';
import { ValidationError } from '../../shared/errors.js';
import { openCsvText, type CsvEncoding } from './csv-text.js';

/** One record of a CSV file, with where it is in the file. */
export interface CsvRecord {
  fields: string[];
  /** The line the record starts on (a quoted cell may span several). */
  line: number;
  /** Bytes of the file read up to the end of this record. */
  endByte: number;
  /** The first field that is not valid text (its text holds U+FFFD where the bad bytes were), if any. */
  notUtf8?: number;
  /** With `notUtf8`: the encoding the file was read in, which that field's bytes break. */
  encoding?: CsvEncoding;
}

/**
 * The longest record read. A valid row is far shorter (100 custom values of 2,000
 * characters are 600 KB), so a longer one is a quote never closed, which would
 * otherwise hold the rest of the file in memory.
 */
export const CSV_MAX_RECORD_BYTES = 1024 * 1024;

/** Line breaks inside a record's cells (only a quoted cell holds one): \r\n, \n or \r, each one line. */
function lineBreaksIn(fields: string[]): number {
  let breaks = 0;
  for (const field of fields) {
    if (field.includes('\n') || field.includes('\r')) breaks += field.match(/\r\n?|\n/g)?.length ?? 0;
  }
  return breaks;
}

/**
 * Streams the records of a CSV file (UTF-8 or UTF-16, separated by commas, semicolons or
 * tabs, as {@link openCsvText} reads them; empty lines, and lines of empty cells only, skipped). Records are not mapped to columns here, so that a row with a wrong number of
 * fields can be reported as one bad row rather than stop the file. A syntax error (a
 * stray or unclosed quote) ends the stream with a ValidationError after every record
 * before it: the parser cannot reliably find where the next row starts.
 */
export async function* csvRecords(file: string): AsyncGenerator<CsvRecord> {
  const text = await openCsvText(file);
  let syntaxError: CsvError | undefined;
  const parser = parse({
    info: true,
    delimiter: text.delimiter,
    // Fields as bytes: decoding them here tells a cell that is not UTF-8 from one holding U+FFFD.
    encoding: null,
    max_record_size: CSV_MAX_RECORD_BYTES,
    relax_column_count: true,
    skip_empty_lines: true,
    // Keeps the records parsed before the error, which a failing stream would drop.
    skip_records_with_error: true,
    on_skip: (error) => {
      syntaxError ??= error;
    },
  });
  // A read error reaches the parser, hence the loop below; nothing to do here.
  pipeline(Readable.from(text.chunks, { objectMode: false }), parser, () => undefined);
  // Lines are counted here: csv-parse counts a \r\n inside quotes as two. A record starts
  // on the line after the previous one's end, after any empty lines.
  let nextLine = text.headerLine;
  let previousEmpty = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Buffer[]; info: Info }>) {
      if (syntaxError && info.records > Number(syntaxError.records)) break;
      const line = nextLine + (info.empty_lines - previousEmpty);
      previousEmpty = info.empty_lines;
      const fields = record.map((bytes) => bytes.toString('utf8'));
      const notUtf8 = record.findIndex((bytes) => !isUtf8(bytes));
      nextLine = line + 1 + lineBreaksIn(fields);
      // A line of only commas and spaces is how spreadsheets export an empty row: no contact, no bad row.
      if (fields.every((field) => field.trim() === '')) continue;
      const endByte = text.fileBytes(info.bytes);
      yield notUtf8 === -1 ? { fields, line, endByte } : { fields, line, endByte, notUtf8, encoding: text.encoding };
    }
  } finally {
    text.close();
  }
  if (!syntaxError) return;
  // The row that failed is the one after the last read; csv-parse's own "at line N" counts a \r\n in quotes twice,
  // and for a quote never closed names the end of the file.
  const line = nextLine + (Number(syntaxError.empty_lines ?? previousEmpty) - previousEmpty);
  if (syntaxError.code === 'CSV_MAX_RECORD_SIZE') {
    throw new ValidationError(`${file}: the row starting at line ${line} is longer than ${CSV_MAX_RECORD_BYTES / 1024 / 1024} MiB: most likely a quote opened there is never closed.`);
  }
  throw new ValidationError(`${file}: the row starting at line ${line} is not valid CSV: ${syntaxError.message.replace(/ at line \d+/, '')}`);
}
