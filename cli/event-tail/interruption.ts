import { isClosedStdout } from '../closed-stdout.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Aborted at the first SIGINT or SIGTERM, or once stdout's reader has gone (`| head -1`), so
 * that a tail stops cleanly (its consumer closed, its connections drained). Taken only once
 * following begins: before, the default handling must stay, or Ctrl-C could not stop a
 * command still waiting to connect. After the first signal neither is taken any more, so a
 * second one of either kind (Ctrl-C, then `kill`) ends the command at once.
 */
export function untilInterrupted(): AbortSignal {
  const stop = new AbortController();
  const onSignal = () => {
    for (const signal of SIGNALS) process.removeListener(signal, onSignal);
    stop.abort();
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.stdout.on('error', (error) => {
    if (isClosedStdout(error)) stop.abort();
  });
  return stop.signal;
}
