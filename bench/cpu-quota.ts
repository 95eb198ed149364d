import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Holds a process to a share of one CPU with a cgroup quota, as a container limit does
 * (`resources.limits.cpu` in deploy/kubernetes). The scaling measurement needs it: on
 * a two-core machine shared by the load generator, gateway, NATS and Postgres, a second
 * unlimited worker only takes CPU from the others, whereas in production each worker
 * brings its own. Needs root and the cgroup cpu controller (v2, or v1 at
 * /sys/fs/cgroup/cpu); null where neither can be used.
 */
export interface CpuQuota {
  /** A new share, or null for no limit. */
  set(cores: number | null): Promise<void>;
  /** Removes the cgroup; the process must have exited. */
  release(): Promise<void>;
}

// A short period spreads the share evenly: with the usual 100 ms, a worker runs 25 ms and then holds its messages for 75 ms.
const PERIOD_US = 10_000;

function cgroupRoot(): { dir: string; version: 1 | 2 } | null {
  const v2 = '/sys/fs/cgroup/cgroup.controllers';
  if (existsSync(v2) && readFileSync(v2, 'utf8').split(/\s+/).includes('cpu')) return { dir: '/sys/fs/cgroup', version: 2 };
  if (existsSync('/sys/fs/cgroup/cpu/cpu.cfs_quota_us')) return { dir: '/sys/fs/cgroup/cpu', version: 1 };
  return null;
}

export async function limitCpu(pid: number, cores: number): Promise<CpuQuota | null> {
  const root = cgroupRoot();
  if (!root) return null;
  const dir = path.join(root.dir, `crm-bench-${pid}`);
  const set = async (share: number | null): Promise<void> => {
    const quota = share === null ? null : String(Math.round(share * PERIOD_US));
    if (root.version === 2) {
      await writeFile(path.join(dir, 'cpu.max'), `${quota ?? 'max'} ${PERIOD_US}`);
    } else {
      await writeFile(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      await writeFile(path.join(dir, 'cpu.cfs_quota_us'), quota ?? '-1');
    }
  };
  try {
    await mkdir(dir);
    await set(cores);
    // cgroup.procs moves every thread of the process (libuv's pool included).
    await writeFile(path.join(dir, 'cgroup.procs'), String(pid));
  } catch {
    await rmdir(dir).catch(() => undefined);
    return null;
  }
  return { set, release: () => rmdir(dir).catch(() => undefined) };
}
