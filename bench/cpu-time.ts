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

/**
 * CPU seconds the whole machine has been busy so far, every core and the kernel included
 * (interrupts and soft interrupts, where loopback networking runs, are charged to no
 * process): /proc/stat's first line less idle and iowait. What the per-process figures
 * leave out is the difference.
 */
export function machineBusySeconds(): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal (guest time is already in user)
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
