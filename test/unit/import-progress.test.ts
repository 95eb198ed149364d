import { PassThrough } from 'node:stream';
import t from 'tap';
import { ImportProgress } from '../../cli/contact-import/import-progress.js';

/** A stderr stand-in that records what is written and says whether it is a terminal. */
function output(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY, columns: 100 }) as unknown as NodeJS.WriteStream;
  let written = '';
  stream.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  return { stream, written: () => written };
}

t.test('on a terminal: a bar, the share of the file, rows, rate and ETA', async (t) => {
  const { stream } = output(true);
  const progress = new ImportProgress(stream, 1_000_000, 0);
  // A quarter of the file in 10 s: 30 s to go at that rate.
  const text = progress.describe({ bytes: 250_000, rows: 25_000 }, 10);
  t.match(text, /^█{6}░{18} /, 'a quarter of the bar filled');
  t.match(text, / 25% {2}25,000 rows {2}2,500 rows\/s {2}ETA 0:30$/);
  t.match(progress.describe({ bytes: 100_000, rows: 10_000 }, 400), /ETA 1:00:00$/, 'hours when it takes that long');
  t.match(progress.describe({ bytes: 0, rows: 0 }, 0), /ETA --:--$/, 'no estimate before the first answer');
});

t.test('the bar is drawn in place and removed at the end; a pipe gets plain lines', async (t) => {
  const tty = output(true);
  const bar = new ImportProgress(tty.stream, 100, performance.now() - 1_000);
  bar.update({ bytes: 50, rows: 5 });
  bar.finish();
  // ESC [ K: erase to the end of the line.
  const erase = '\u001b[K';
  t.ok(tty.written().startsWith('\r') && /50%/.test(tty.written()), 'redrawn in place with a carriage return');
  t.ok(tty.written().endsWith(`${erase}\r${erase}`), 'then cleared');

  const early = output(false);
  const short = new ImportProgress(early.stream, 100, performance.now() - 1_000);
  short.update({ bytes: 40, rows: 4 });
  short.finish();
  t.equal(early.written(), '', 'a pipe gets nothing in the first 10 s');

  const pipe = output(false);
  const plain = new ImportProgress(pipe.stream, 100, performance.now() - 20_000);
  plain.update({ bytes: 50, rows: 5_000 });
  plain.update({ bytes: 60, rows: 6_000 });
  plain.finish();
  t.match(pipe.written(), /^import: {2}50% {2}5,000 rows {2}250 rows\/s {2}ETA 0:2\d\n$/, 'then one plain line, no bar, no escape codes; the next waits 10 s more');
});

t.test('read from a pipe, whose size is unknown: rows and rate, no share of the file and no ETA', async (t) => {
  const pipe = output(false);
  const progress = new ImportProgress(pipe.stream, undefined, performance.now() - 20_000);
  t.equal(progress.describe({ bytes: 5_000_000, rows: 50_000 }, 20), '50,000 rows  2,500 rows/s');
  progress.update({ bytes: 5_000_000, rows: 50_000 });
  t.match(pipe.written(), /^import: 50,000 rows {2}[\d,]+ rows\/s\n$/, 'never a made-up 100%');
  const tty = output(true);
  const bar = new ImportProgress(tty.stream, undefined, 0);
  t.notMatch(bar.describe({ bytes: 10, rows: 1 }, 1), /[█░%]|ETA/, 'no bar on a terminal either');
});
