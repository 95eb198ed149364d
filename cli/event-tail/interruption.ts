import { isClosedStdout } from '../closed-stdout.js';

/**
 * Aborted at the first SIGINT or SIGTERM, or once stdout's reader has gone (`| head -1`), so
 * that a tail stops cleanly (its consumer closed, its connections drained). Taken only once
 * following begins: before, the default handling must stay, or Ctrl-C could not stop a
 * command still waiting to connect.
 */
export function untilInterrupted(): AbortSignal {
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  process.stdout.on('error', (error) => {
    if (isClosedStdout(error)) stop.abort();
  });
  return stop.signal;
}
