/** A mistake in how a command was called: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}
