import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used so far (user and system), from /proc; 0 once it is gone.
 * `withReapedChildren` adds its children that have exited (Postgres's closed backends).
 */
export function cpuSecondsOf(pid: number | undefined, withReapedChildren = false): number {
  if (pid === undefined) return 0;
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (withReapedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used by every process with this command name (e.g. all of Postgres's),
 * those that exited included, so the figure never goes back when a backend closes.
 */
export function cpuSecondsOfCommand(command: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === command) total += cpuSecondsOf(Number(entry), true);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return total;
}
