import { CrmError } from '../../shared/errors.js';
import type { ImportSummary } from './import-summary.js';

/** The import stopped part-way: it keeps the code of what stopped it, so the exit code and the message stay right. */
export class ImportStoppedError extends CrmError {
  constructor(
    cause: unknown,
    message: string,
    /** 130 when a signal stopped it, as a shell reports a command ended by Ctrl-C. */
    readonly exitCode = 1,
    /** What was done before it stopped, for `--json`. */
    readonly summary?: ImportSummary,
  ) {
    super(cause instanceof CrmError ? cause.code : 'internal', message);
  }
}
