import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { RowProblem } from '../../shared/contracts/contact-import.js';

/** A CSV cell, quoted when it must be. */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The rows an import could not store: `line,field,reason`, in file order. Always
 * written, header only when every row went in, so an old report never passes for
 * this run's.
 */
export class ErrorsFile {
  private constructor(private readonly out: WriteStream) {}

  static async create(path: string): Promise<ErrorsFile> {
    const out = createWriteStream(path, { encoding: 'utf8' });
    await once(out, 'open');
    const file = new ErrorsFile(out);
    await file.write('line,field,reason\n');
    return file;
  }

  async add(problems: RowProblem[]): Promise<void> {
    if (problems.length === 0) return;
    await this.write(problems.map((p) => `${p.line},${csvCell(p.param ?? '')},${csvCell(p.reason)}\n`).join(''));
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }

  private async write(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
}
