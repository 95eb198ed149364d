import { createReadStream } from 'node:fs';

/** The delimiters a header row may use: commas, or semicolons and tabs as spreadsheets in many locales write them. */
const DELIMITERS = [',', ';', '\t'] as const;

/** A file's text as the CSV parser reads it, with how the file writes it. */
export interface CsvText {
  /** The text, from the header row on: a BOM and Excel's `sep=` line are left out. */
  chunks: AsyncIterable<Buffer>;
  delimiter: string;
  /** The line of the file the header row is on: 2 after a `sep=` line. */
  headerLine: number;
  /** Bytes of the file holding the first `textBytes` of `chunks`. */
  fileBytes(textBytes: number): number;
  /** Closes the file when it is not read to its end. */
  close(): void;
}

/** Enough of the start of a file to find its header row's delimiter; a longer header is not a real one. */
const HEAD_MAX_BYTES = 64 * 1024;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Excel's first line naming the delimiter (`sep=;`), which is not part of the data. */
const SEP_LINE = /^"?sep=([^"\r\n])"?[ \t]*(\r\n|\r|\n|$)/i;

/** The delimiter the header row uses the most, outside quotes; a comma when it uses none. */
function delimiterOf(headerLine: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (DELIMITERS as readonly string[]).includes(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  for (const delimiter of DELIMITERS) if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  return best;
}

/**
 * Opens a CSV file and reads how it is written from its start: Excel's `sep=X` first
 * line, else the delimiter the header row uses (comma, semicolon or tab). A UTF-8 BOM is
 * dropped here rather than by csv-parse, which would decode the fields itself after one,
 * hiding bytes that are not UTF-8.
 */
export async function openCsvText(file: string): Promise<CsvText> {
  const stream = createReadStream(file);
  const raw = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  let rawDone = false;
  const readRaw = async (): Promise<Buffer | undefined> => {
    const next = await raw.next();
    if (next.done) rawDone = true;
    return next.done ? undefined : next.value;
  };
  while (!rawDone && head.length < UTF8_BOM.length) {
    const chunk = await readRaw();
    if (chunk) head = Buffer.concat([head, chunk]);
  }
  const bomBytes = head.subarray(0, UTF8_BOM.length).equals(UTF8_BOM) ? UTF8_BOM.length : 0;
  async function* rawText(first: Buffer): AsyncGenerator<Buffer> {
    if (first.length > 0) yield first;
    for (let chunk = await readRaw(); chunk; chunk = await readRaw()) yield chunk;
  }
  const text = rawText(head.subarray(bomBytes));

  // The start of the text, up to the end of the header row (and of a sep= line before it).
  let start = Buffer.alloc(0);
  let textDone = false;
  const lineEnds = (buffer: Buffer) => buffer.reduce((n, byte) => (byte === 0x0a || byte === 0x0d ? n + 1 : n), 0);
  while (!textDone && start.length < HEAD_MAX_BYTES && lineEnds(start) < 3) {
    const next = await text.next();
    if (next.done) textDone = true;
    else start = Buffer.concat([start, next.value]);
  }
  const startText = start.toString('utf8');
  const sep = SEP_LINE.exec(startText);
  const sepBytes = sep ? Buffer.byteLength(sep[0]) : 0;
  const delimiter = sep ? (sep[1] as string) : delimiterOf(startText.split(/[\r\n]/, 1)[0] ?? '');

  async function* fromHeader(): AsyncGenerator<Buffer> {
    if (start.length > sepBytes) yield start.subarray(sepBytes);
    if (textDone) return;
    yield* text;
  }
  return {
    chunks: fromHeader(),
    delimiter,
    headerLine: sep ? 2 : 1,
    fileBytes: (n) => bomBytes + sepBytes + n,
    close: () => stream.destroy(),
  };
}
