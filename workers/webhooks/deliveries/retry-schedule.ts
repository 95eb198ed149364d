/** Each wait is shortened by up to this share at random, so deliveries failed together do not all come back together. */
const JITTER = 0.2;

/**
 * How long to wait after the `attempts`-th failed attempt (1 for the first), or null when
 * the schedule is spent and the delivery has failed.
 */
export function retryDelayMs(schedule: readonly number[], attempts: number, random: () => number = Math.random): number | null {
  const wait = schedule[attempts - 1];
  if (wait === undefined) return null;
  return Math.round(wait * (1 - JITTER * random()));
}
