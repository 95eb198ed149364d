/**
 * Whether an error of stdout means its reader has gone (`crm events tail | head -1`): not a
 * failure of the command, which has nobody left to print for.
 */
export function isClosedStdout(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}
