import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { parse, type CsvError, type Info } from 'csv-parse';
import { ValidationError } from '../../shared/errors.js';

/** One record of a CSV file, with where it is in the file. */
export interface CsvRecord {
  fields: string[];
  /** The line the record starts on (a quoted cell may span several). */
  line: number;
  /** Bytes of the file read up to the end of this record. */
  endByte: number;
}

/**
 * Streams the records of a CSV file (UTF-8, comma-separated, optional BOM; empty lines
 * skipped). Records are not mapped to columns here, so that a row with a wrong number of
 * fields can be reported as one bad row rather than stop the file. A syntax error (a
 * stray or unclosed quote) ends the stream with a ValidationError after every record
 * before it: the parser cannot reliably find where the next row starts.
 */
export async function* csvRecords(file: string): AsyncGenerator<CsvRecord> {
  let syntaxError: CsvError | undefined;
  const parser = parse({
    info: true,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // Keeps the records parsed before the error, which a failing stream would drop.
    skip_records_with_error: true,
    on_skip: (error) => {
      syntaxError ??= error;
    },
  });
  // A read error (e.g. a directory) reaches the parser, hence the loop below; nothing to do here.
  pipeline(createReadStream(file), parser, () => undefined);
  // csv-parse reports the line a record ends on; it starts after the previous one and any empty lines.
  let previousEnd = 0;
  let previousEmpty = 0;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
    if (syntaxError && info.records > Number(syntaxError.records)) break;
    const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
    previousEnd = info.lines;
    previousEmpty = info.empty_lines;
    yield { fields: record, line, endByte: info.bytes };
  }
  if (syntaxError) throw new ValidationError(`${file}: ${syntaxError.message}`);
}
