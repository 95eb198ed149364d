import { createReadStream } from 'node:fs';
import { utf16ToUtf8 } from './utf16-to-utf8.js';

/** The encodings a CSV file is read in: UTF-8, or UTF-16 as Excel's "Unicode Text" and some exports write it. */
export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The delimiters a header row may use: commas, or semicolons and tabs as spreadsheets in many locales write them. */
const DELIMITERS = [',', ';', '\t'] as const;

/** A file's text as the CSV parser reads it, with how the file writes it. */
export interface CsvText {
  /** The text as UTF-8, from the header row on: a BOM and Excel's `sep=` line are left out. */
  chunks: AsyncIterable<Buffer>;
  encoding: CsvEncoding;
  delimiter: string;
  /** The line of the file the header row is on: 2 after a `sep=` line. */
  headerLine: number;
  /** Bytes of the file holding the first `textBytes` of `chunks`: exact for UTF-8, estimated for UTF-16 (for the progress only). */
  fileBytes(textBytes: number): number;
  /** Closes the file when it is not read to its end. */
  close(): void;
}

/** Enough of the start of a file to find its header row's delimiter; a longer header is not a real one. */
const HEAD_MAX_BYTES = 64 * 1024;

/** The encoding a file's first bytes say: a BOM, else a header of ASCII names written in UTF-16 (every other byte 0). */
function encodingOf(head: Buffer): { encoding: CsvEncoding; bomBytes: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bomBytes: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2 };
  if (head.length >= 4 && head[0] !== 0 && head[1] === 0 && head[2] !== 0 && head[3] === 0) return { encoding: 'utf-16le', bomBytes: 0 };
  if (head.length >= 4 && head[0] === 0 && head[1] !== 0 && head[2] === 0 && head[3] !== 0) return { encoding: 'utf-16be', bomBytes: 0 };
  return { encoding: 'utf-8', bomBytes: 0 };
}

/** Excel's first line naming the delimiter (`sep=;`), which is not part of the data; saved again, delimiters pad it (`sep=;;;`). */
const SEP_LINE = /^"?sep=([^"\r\n])"?\1*[ \t]*(\r\n|\r|\n|$)/i;

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
 * Opens a CSV file as UTF-8 text and reads how it is written from its start: the
 * encoding from a BOM, Excel's `sep=X` first line, else the delimiter the header row
 * uses (comma, semicolon or tab). Bytes that are not valid UTF-8 (or UTF-16) stay
 * invalid UTF-8, so that the parser's caller can tell which cells hold them.
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
  while (!rawDone && head.length < 4) {
    const chunk = await readRaw();
    if (chunk) head = Buffer.concat([head, chunk]);
  }
  const { encoding, bomBytes } = encodingOf(head);

  // UTF-16 becomes UTF-8 here; the counts estimate where in the file a point of the text is.
  const decoder = encoding === 'utf-8' ? undefined : utf16ToUtf8(encoding);
  let sourceBytes = 0;
  let textBytes = 0;
  const toText = (bytes: Buffer, last = false): Buffer => {
    if (!decoder) return bytes;
    sourceBytes += bytes.length;
    const text = decoder(bytes, last);
    textBytes += text.length;
    return text;
  };
  async function* decoded(first: Buffer): AsyncGenerator<Buffer> {
    if (first.length > 0) yield toText(first);
    for (let chunk = await readRaw(); chunk; chunk = await readRaw()) yield toText(chunk);
    if (decoder) {
      const rest = toText(Buffer.alloc(0), true);
      if (rest.length > 0) yield rest;
    }
  }
  const text = decoded(head.subarray(bomBytes));

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
    encoding,
    delimiter,
    headerLine: sep ? 2 : 1,
    fileBytes: (n) => {
      const before = n + sepBytes;
      return bomBytes + (decoder && textBytes > 0 ? Math.round((before * sourceBytes) / textBytes) : before);
    },
    close: () => stream.destroy(),
  };
}
