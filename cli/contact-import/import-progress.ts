/** Where the import stands: bytes of the file whose rows have been answered, and those rows. */
export interface ProgressPoint {
  bytes: number;
  rows: number;
}

const BAR_WIDTH = 24;
/** A terminal is redrawn at most this often; plain output (a log, a pipe) gets a line this often. */
const REDRAW_MS = 100;
const PLAIN_LINE_MS = 10_000;

function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h > 0 ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * The progress of an import on stderr: a bar redrawn in place on a terminal, otherwise a
 * plain line every 10 s. The ETA assumes the rest of the file goes at the rate so far.
 * Read from a pipe (`<(gunzip -c …)`), the file's size is unknown: then only rows and rate.
 */
export class ImportProgress {
  private drawn = false;
  /** The first line comes one interval after the start: a short import prints none. */
  private lastDraw: number;

  constructor(
    private readonly out: NodeJS.WriteStream,
    /** undefined: a pipe, whose size is not known before its end. */
    private readonly totalBytes: number | undefined,
    private readonly startedAt = performance.now(),
  ) {
    this.lastDraw = startedAt;
  }

  update(point: ProgressPoint): void {
    const now = performance.now();
    if (now - this.lastDraw < (this.out.isTTY ? REDRAW_MS : PLAIN_LINE_MS)) return;
    this.lastDraw = now;
    const text = this.describe(point, (now - this.startedAt) / 1000);
    if (this.out.isTTY) {
      this.out.write(`\r${text.slice(0, (this.out.columns || 80) - 1)}\x1b[K`);
      this.drawn = true;
    } else {
      this.out.write(`import: ${text}\n`);
    }
  }

  /** Removes the bar, so the summary starts on a clean line. */
  finish(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }

  describe(point: ProgressPoint, seconds: number): string {
    const rate = seconds > 0 ? point.rows / seconds : 0;
    const counts = `${point.rows.toLocaleString('en')} rows  ${Math.round(rate).toLocaleString('en')} rows/s`;
    // No share and no ETA to show: a made-up 100% would read as nearly done.
    if (this.totalBytes === undefined) return counts;
    const fraction = this.totalBytes > 0 ? Math.min(1, point.bytes / this.totalBytes) : 1;
    const filled = Math.round(fraction * BAR_WIDTH);
    const eta = fraction > 0 ? clock((seconds * (1 - fraction)) / fraction) : '--:--';
    const bar = this.out.isTTY ? `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ` : '';
    return `${bar}${String(Math.floor(fraction * 100)).padStart(3)}%  ${counts}  ETA ${eta}`;
  }
}
