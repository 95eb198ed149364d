import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { csvRecords, type CsvRecord } from '../../cli/contact-import/csv-records.js';

const dir = await mkdtemp(path.join(tmpdir(), 'csv-records-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

let files = 0;
async function recordsOf(content: string | Buffer): Promise<{ records: CsvRecord[]; error?: Error }> {
  const file = path.join(dir, `${files++}.csv`);
  await writeFile(file, content);
  const records: CsvRecord[] = [];
  try {
    for await (const record of csvRecords(file)) records.push(record);
  } catch (error) {
    return { records, error: error as Error };
  }
  return { records };
}

t.test('a quoted cell with line breaks: the rows after it keep their file lines, whatever the line endings', async (t) => {
  for (const eol of ['\n', '\r\n', '\r']) {
    const { records } = await recordsOf(['a,b', `"one${eol}two${eol}three",1`, 'c,2', '', 'd,3', ''].join(eol));
    t.same(
      records.map((r) => r.line),
      [1, 2, 5, 7],
      `${JSON.stringify(eol)}: the row after the quoted cell is on line 5, the one after an empty line on 7`,
    );
    t.equal(records[1]?.fields[0], `one${eol}two${eol}three`);
  }
});

t.test('a cell that is not UTF-8 is marked, with its field; U+FFFD written as UTF-8 is not', async (t) => {
  const { records } = await recordsOf(Buffer.concat([Buffer.from('a,b\nok,caf'), Buffer.from([0xe9]), Buffer.from('\n\u{fffd},1\n')]));
  t.same(
    records.map((r) => [r.line, r.notUtf8]),
    [
      [1, undefined],
      [2, 1],
      [3, undefined],
    ],
  );
  t.equal(records[2]?.fields[0], '\u{fffd}');
});

t.test('a BOM is not part of the first column name', async (t) => {
  const { records } = await recordsOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('first_name,phone\nAda,1\n')]));
  t.same(records[0]?.fields, ['first_name', 'phone']);
});

t.test('an unclosed quote stops the file at the row it opens on, without reading the rest into one record', async (t) => {
  const rows = Array.from({ length: 120_000 }, (_, i) => `Name${i},${i}`);
  const { records, error } = await recordsOf(['a,b', 'x,1', '', 'y,"2', ...rows, ''].join('\n'));
  t.same(
    records.map((r) => r.line),
    [1, 2],
    'the rows before it',
  );
  t.match(error?.message, /the row starting at line 4 is longer than 1 MiB: most likely a quote opened there is never closed/);
});

t.test('a stray quote stops the file after the rows before it', async (t) => {
  const { records, error } = await recordsOf('a,b\nx,1\ny,"2"z\nw,3\n');
  t.same(
    records.map((r) => r.line),
    [1, 2],
  );
  t.match(error?.message, /Invalid Closing Quote/);
});

t.test('semicolons or tabs between the header names make them the delimiter; a comma inside a cell is then text', async (t) => {
  for (const delimiter of [';', '\t']) {
    const { records } = await recordsOf(['first_name{d}phone{d}last_name', 'Ada{d}+1 415 555 0100{d}Lovelace, Countess', '{d}{d}', 'Bob{d}"4155550101"{d}', ''].join('\r\n').replaceAll('{d}', delimiter));
    t.same(
      records.map((r) => [r.line, r.fields]),
      [
        [1, ['first_name', 'phone', 'last_name']],
        [2, ['Ada', '+1 415 555 0100', 'Lovelace, Countess']],
        [4, ['Bob', '4155550101', '']],
      ],
      JSON.stringify(delimiter),
    );
  }
  const { records } = await recordsOf('first_name,phone,note\nAda,1,"a; b; c"\n');
  t.same(records[1]?.fields, ['Ada', '1', 'a; b; c'], 'a comma file with semicolons in a quoted cell stays a comma file');
});

t.test("Excel's sep= first line names the delimiter and is no row; the header is then line 2", async (t) => {
  const { records } = await recordsOf('sep=;\r\nfirst_name;phone\r\nAda;1\r\n\r\nBob;2\r\n');
  t.same(
    records.map((r) => [r.line, r.fields]),
    [
      [2, ['first_name', 'phone']],
      [3, ['Ada', '1']],
      [5, ['Bob', '2']],
    ],
  );
  const comma = await recordsOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('sep=,\nfirst_name,phone;x\nAda,1;2\n')]));
  t.same(comma.records.map((r) => r.fields), [['first_name', 'phone;x'], ['Ada', '1;2']], 'after a BOM too, and it wins over what the header seems to use');
});

t.test('UTF-16 (with a BOM, as Excel\'s "Unicode Text" writes it, or without) is read as the text it is', async (t) => {
  const text = 'first_name\tphone\r\nJosé\t+1 415 555 0100\r\n"Zoë\r\nMüller 😀"\t2\r\nLast\t3\r\n';
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(text, 'utf16le').swap16();
  for (const [name, bytes] of [
    ['UTF-16LE with a BOM', le],
    ['UTF-16BE with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), be])],
    ['UTF-16LE without', Buffer.from(text, 'utf16le')],
  ] as const) {
    const { records, error } = await recordsOf(bytes);
    t.equal(error, undefined, name);
    t.same(
      records.map((r) => [r.line, r.fields, r.notUtf8]),
      [
        [1, ['first_name', 'phone'], undefined],
        [2, ['José', '+1 415 555 0100'], undefined],
        [3, ['Zoë\r\nMüller 😀', '2'], undefined],
        [5, ['Last', '3'], undefined],
      ],
      name,
    );
    t.equal(records.at(-1)?.endByte, bytes.length, `${name}: the last row ends at the end of the file`);
  }
});

t.test('UTF-16 that breaks (a lone surrogate, an odd last byte) marks its cell, as bytes that are not UTF-8 do; a pair across a read chunk does not', async (t) => {
  const lone = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('first_name\tphone\r\nA', 'utf16le'), Buffer.from([0x3d, 0xd8]), Buffer.from('\t1\r\nB\t2\r\nC', 'utf16le'), Buffer.from([0x00, 0xde]), Buffer.from('\t3\r\n', 'utf16le')]);
  const broken = await recordsOf(lone);
  t.same(
    broken.records.map((r) => [r.line, r.notUtf8, r.encoding]),
    [
      [1, undefined, undefined],
      [2, 0, 'utf-16le'],
      [3, undefined, undefined],
      [4, 0, 'utf-16le'],
    ],
    'a high surrogate with no low one, and a low one alone, each mark their cell',
  );
  const odd = await recordsOf(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('a\tb\r\nx\ty', 'utf16le').swap16(), Buffer.from([0x00])]));
  t.same(odd.records.map((r) => [r.fields[0], r.notUtf8]), [['a', undefined], ['x', 1]], 'an odd byte at the end of a UTF-16BE file marks the last cell');

  // A file is read in 64 KiB chunks: put an emoji's two halves on each side of the first boundary.
  const header = 'first_name\tphone\r\n';
  const beforeEmoji = header + 'y'.repeat(65_534 / 2 - 1 - header.length - 1) + '\t';
  const split = await recordsOf(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${beforeEmoji}😀\r\nz\t3\r\n`, 'utf16le')]));
  t.equal(2 + Buffer.byteLength(beforeEmoji, 'utf16le'), 65_534, 'the high half ends the first chunk');
  t.equal(split.error, undefined);
  t.equal(split.records.find((r) => r.fields.includes('😀'))?.notUtf8, undefined, 'the emoji split across chunks is whole');
  t.ok(split.records.every((r) => r.notUtf8 === undefined), 'no cell marked');
});

t.test('a sep= line padded with delimiters (as a spreadsheet saves it again) still names the delimiter', async (t) => {
  for (const line of ['sep=;;;', '"sep=;";;']) {
    const { records } = await recordsOf(`${line}\nfirst_name;phone;x\nAda;1;2\n`);
    t.same(records.map((r) => [r.line, r.fields]), [[2, ['first_name', 'phone', 'x']], [3, ['Ada', '1', '2']]], line);
  }
});
