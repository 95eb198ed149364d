/**
 * `npm run bench -- --cluster`: scaling shown on a production-shaped bus. A 3-node NATS
 * cluster (local nats-server processes with routes, JetStream replicated 3 times), two
 * gateways with the load generator spreading its connections over them, and 1, 2 and 4
 * contacts workers each held to 0.25 CPU by a cgroup quota (as a container limit would),
 * so that the worker tier is what limits until a gateway or Postgres saturates. Without
 * root or a cgroup cpu controller the workers run unlimited, and every summary line says so.
 * Then one NATS node is killed under a write load: errors, recovery time, and whether every
 * acknowledged write is in the database.
 */
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { startBenchStack, type BenchStack } from './bench-stack.js';
import { cpuSecondsOf, cpuSecondsOfCommand, machineBusySeconds } from './cpu-time.js';
import { formatColumns, load, type LoadResult } from './load.js';
import { startNatsCluster } from './nats-cluster.js';
import { freePort, waitReady } from './processes.js';
import { seedContacts } from './seed-contacts.js';

const WORKER_CPUS = 0.25;
const WORKER_COUNTS = [1, 2, 4] as const;
const SEED_ROWS = 20_000;
const KILL_RUN_SECONDS = 20;
const KILL_AT_SECONDS = 6;

interface ScalingRow {
  workers: number;
  rps: number;
  p99: number;
  errors: number;
  /** Whether every worker of this step was held to WORKER_CPUS. */
  held: boolean;
  /** Measured, not the quota: the per-core figures need it when the quota did not hold. */
  workerCores: number;
  gatewayCores: number;
  postgresCores: number;
  natsCores: number;
  /** This process: autocannon and the bench itself. */
  loadCores: number;
  /** The whole machine, the kernel's network work included: the tiers above leave that out. */
  machineCores: number;
}

export async function runClusterBench(options: { durationSeconds: number; connections: number }): Promise<boolean> {
  const cluster = await startNatsCluster(3);
  let stack: BenchStack | undefined;
  try {
    stack = await startBenchStack({ env: { NATS_URL: cluster.urls.join(','), NATS_KV_REPLICAS: '3', EVENTS_STREAM_REPLICAS: '3' } });
    const secondPort = await freePort();
    const secondGateway = stack.spawn(['gateway'], { ...stack.env, PORT: String(secondPort) });
    const gatewayUrls = [stack.baseUrl, `http://127.0.0.1:${secondPort}`];
    await waitReady(`${gatewayUrls[1]}/readyz`);
    const gatewayPids = [stack.gateway.pid, secondGateway.pid];

    const db = new pg.Client({ connectionString: stack.dbUrl });
    await db.connect();
    db.on('error', () => undefined);
    await seedContacts(db, stack.workspaceId, SEED_ROWS, 'con_C');
    await db.query('vacuum analyze contacts');

    const headers = { authorization: `Bearer ${stack.token}` };
    /** The same load through both gateways at once, half the connections each. */
    const spread = async (name: string, seconds: number): Promise<LoadResult> => {
      const runs = await Promise.all(
        gatewayUrls.map((url) => load({ name, url: `${url}/v1/contacts?limit=100`, headers, connections: Math.max(1, options.connections / 2), durationSeconds: seconds })),
      );
      return {
        name,
        requests: runs.reduce((n, r) => n + r.requests, 0),
        rps: runs.reduce((n, r) => n + r.rps, 0),
        p50: Math.max(...runs.map((r) => r.p50)),
        p99: Math.max(...runs.map((r) => r.p99)),
        errors: runs.reduce((n, r) => n + r.errors, 0),
        non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
      };
    };

    const rows: ScalingRow[] = [];
    for (const count of WORKER_COUNTS) {
      while ((stack.workers.get('contacts')?.length ?? 0) < count) await stack.addWorker('contacts');
      const workers = stack.workers.get('contacts') ?? [];
      // Warmed up unlimited: a worker that compiles its hot paths under a quota spends its share on the compiler.
      await spread('warm-up', 4);
      let held = true;
      for (const w of workers) held = (await stack.limitCpu(w, WORKER_CPUS)) && held;
      const pids = { gateways: gatewayPids, workers: workers.map((w) => w.pid) };
      const cpuBefore = cpuNow(pids);
      const result = await spread(`${count} worker(s)`, options.durationSeconds);
      const used = cpuSince(cpuBefore, cpuNow(pids), options.durationSeconds);
      for (const w of workers) await stack.limitCpu(w, null);
      rows.push({ workers: count, rps: result.rps, p99: result.p99, errors: result.errors + result.non2xx, held, ...used });
    }

    const kill = await killNodeUnderLoad(stack, gatewayUrls, cluster.kill, options.connections);
    const acknowledged = kill.createdIds.length;
    const stored = acknowledged === 0 ? 0 : Number((await db.query<{ n: string }>('select count(*) as n from contacts where id = any($1)', [kill.createdIds])).rows[0]?.n);
    await db.end();

    return report(rows, gatewayUrls.length, kill, acknowledged, stored);
  } finally {
    await stack?.stop();
    await cluster.stop();
  }
}

interface CpuSample {
  at: number;
  workers: number;
  gateways: number;
  postgres: number;
  nats: number;
  load: number;
  machine: number;
}

function cpuNow(pids: { gateways: (number | undefined)[]; workers: (number | undefined)[] }): CpuSample {
  const sum = (list: (number | undefined)[]) => list.reduce((n: number, pid) => n + cpuSecondsOf(pid), 0);
  return {
    at: performance.now(),
    workers: sum(pids.workers),
    gateways: sum(pids.gateways),
    postgres: cpuSecondsOfCommand('postgres'),
    nats: cpuSecondsOfCommand('nats-server'),
    load: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    machine: machineBusySeconds(),
  };
}

function cpuSince(
  before: CpuSample,
  after: CpuSample,
  seconds: number,
): Pick<ScalingRow, 'workerCores' | 'gatewayCores' | 'postgresCores' | 'natsCores' | 'loadCores' | 'machineCores'> {
  const wall = Math.max((after.at - before.at) / 1000, seconds);
  const cores = (key: Exclude<keyof CpuSample, 'at'>) => (after[key] - before[key]) / wall;
  return {
    workerCores: cores('workers'),
    gatewayCores: cores('gateways'),
    postgresCores: cores('postgres'),
    natsCores: cores('nats'),
    loadCores: cores('load'),
    machineCores: cores('machine'),
  };
}

interface KillResult {
  requests: number;
  failures: number;
  /** From the kill to the last failed request; 0 when none failed. */
  recoveryMs: number;
  createdIds: string[];
}

/** A write load through both gateways; one NATS node is killed a few seconds in. */
async function killNodeUnderLoad(stack: BenchStack, gatewayUrls: string[], killNode: (node: number) => void, connections: number): Promise<KillResult> {
  const createdIds: string[] = [];
  let failures = 0;
  let requests = 0;
  let lastFailureAt = 0;
  let n = 0;
  const killedAt = Date.now() + KILL_AT_SECONDS * 1000;
  const timer = setTimeout(() => killNode(0), KILL_AT_SECONDS * 1000);
  const runs = gatewayUrls.map(
    (url) =>
      new Promise<void>((resolve, reject) => {
        const instance = autocannon(
          {
            url: `${url}/v1/contacts`,
            connections: Math.max(1, connections / 2),
            duration: KILL_RUN_SECONDS,
            // Every request is followed to its end: a write that takes long must still be counted.
            timeout: 20,
            headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
            requests: [
              {
                method: 'POST',
                setupRequest: (req) => ({ ...req, body: JSON.stringify({ first_name: `Cluster ${n}`, phone: `+1415${String(3_000_000 + n++).padStart(7, '0')}` }) }),
                onResponse: (status, body) => {
                  requests++;
                  if (status === 201) createdIds.push((JSON.parse(body) as { id: string }).id);
                  else {
                    failures++;
                    lastFailureAt = Date.now();
                  }
                },
              },
            ],
          },
          (error) => (error ? reject(error) : resolve()),
        );
        instance.on('reqError', () => {
          failures++;
          lastFailureAt = Date.now();
        });
      }),
  );
  await Promise.all(runs);
  clearTimeout(timer);
  return { requests, failures, recoveryMs: lastFailureAt > killedAt ? lastFailureAt - killedAt : 0, createdIds };
}

function report(rows: ScalingRow[], gateways: number, kill: KillResult, acknowledged: number, stored: number): boolean {
  const out = process.stdout;
  let passed = true;
  const mark = (ok: boolean) => {
    if (!ok) passed = false;
    return ok ? 'PASS' : 'FAIL';
  };
  const one = rows[0];
  const allHeld = rows.every((r) => r.held);
  out.write(`\n3-node NATS cluster, ${gateways} gateways, contacts workers ${allHeld ? `each held to ${WORKER_CPUS} CPU` : 'UNLIMITED (no cgroup cpu controller, or not root: the ratios mean little)'}, Node ${process.version}\n\n`);
  out.write(
    `${formatColumns([
      ['contacts workers', 'req/s', 'x 1 worker', 'p99 ms', 'errors', 'worker cores (quota)', 'gateway cores', 'Postgres cores', 'NATS cores', 'load generator cores', 'machine busy cores'],
      ...rows.map((r) => [
        String(r.workers),
        String(r.rps),
        one ? (r.rps / one.rps).toFixed(2) : '-',
        r.p99.toFixed(1),
        String(r.errors),
        `${r.workerCores.toFixed(2)} (${r.held ? (r.workers * WORKER_CPUS).toFixed(2) : 'none'})`,
        r.gatewayCores.toFixed(2),
        r.postgresCores.toFixed(2),
        r.natsCores.toFixed(2),
        r.loadCores.toFixed(2),
        `${r.machineCores.toFixed(2)} of ${availableParallelism()}`,
      ]),
    ])}\n\n`,
  );
  // Each pasted line says whether the quota held: unlimited workers on shared cores make neither the ratio nor the per-core figure comparable.
  for (const [workers, bar] of [[2, 1.8], [4, 3.2]] as const) {
    const row = rows.find((r) => r.workers === workers);
    if (!row || !one) continue;
    const ratio = row.rps / one.rps;
    const quota = row.held && one.held ? `each held to ${WORKER_CPUS} CPU` : 'UNLIMITED (no quota applied)';
    // The bar holds "until the gateway or Postgres saturates": on one machine every tier shares
    // its cores, so a saturated machine ends the worker tier's scaling, and the line says so
    // instead of a verdict on the workers.
    const verdict = ratio >= bar ? mark(true) : machineSaturated(row) ? 'NOT APPLICABLE (the machine saturated)' : mark(false);
    out.write(`${workers} workers ${quota}: ${ratio.toFixed(2)}x one (>= ${bar}x) ${verdict}${ratio < bar ? ` ; ${saturation(row, gateways)}` : ''}\n`);
  }
  if (one) {
    const top = rows.at(-1) ?? one;
    // A held worker may use its quota, as under a container limit; an unlimited one only tells what it used.
    const workerCore = one.held ? WORKER_CPUS : Math.max(one.workerCores, 0.01);
    const how = one.held ? `held to ${WORKER_CPUS} CPU, used ${one.workerCores.toFixed(2)}` : `UNLIMITED, used ${one.workerCores.toFixed(2)} cores`;
    out.write(
      `capacity: ${(one.rps / workerCore).toFixed(0)} list req/s per worker core (1 worker ${how}); ` +
        `${(top.rps / Math.max(top.gatewayCores, 0.01)).toFixed(0)} req/s per gateway core; Postgres used ${top.postgresCores.toFixed(2)} cores at ${top.rps} req/s\n`,
    );
  }
  const lost = acknowledged - stored;
  out.write(
    `\nNATS node killed under a write load (${kill.requests} requests in ${KILL_RUN_SECONDS} s): ${kill.failures} failed, ` +
      `the last failure ${(kill.recoveryMs / 1000).toFixed(1)} s after the kill (a request whose reply went through the killed node waits out BUS_TIMEOUT_MS); ` +
      `${acknowledged} acknowledged writes, ${stored} stored, ${lost} lost ${mark(lost === 0)}\n`,
  );
  return passed;
}

/** At 90% of every core busy, runnable processes wait for a core: another worker cannot add throughput. */
function machineSaturated(row: ScalingRow): boolean {
  return row.machineCores >= 0.9 * availableParallelism();
}

/** What most likely held throughput back when more workers did not add it, from the CPU each tier used. */
function saturation(row: ScalingRow, gateways: number): string {
  const cores = availableParallelism();
  const quota = row.workers * WORKER_CPUS;
  const used = row.workerCores + row.gatewayCores + row.postgresCores + row.natsCores + row.loadCores;
  const workers = row.held ? `workers ${row.workerCores.toFixed(2)} of a ${quota.toFixed(2)} quota` : `workers ${row.workerCores.toFixed(2)} (no quota)`;
  const parts = `${workers}, gateways ${row.gatewayCores.toFixed(2)}, Postgres ${row.postgresCores.toFixed(2)}, NATS ${row.natsCores.toFixed(2)}, load generator ${row.loadCores.toFixed(2)}`;
  const inUse = `${row.machineCores.toFixed(2)} of ${cores} cores busy, ${used.toFixed(2)} of them in these processes (${parts}), the rest the kernel's network work and the stack's other processes`;
  if (machineSaturated(row)) return `the machine saturated: ${inUse}`;
  if (row.held && row.workerCores >= 0.9 * quota) return `${inUse}: the workers' quota (cgroup throttling adds latency) rather than the machine`;
  // A Node process runs its JavaScript on one thread: near a whole core, it is at its limit.
  if (row.workerCores / row.workers >= 0.9) return `${inUse}: the workers, each near the one core its JavaScript runs on`;
  if (row.gatewayCores / gateways >= 0.9) return `${inUse}: the gateways, each near the one core its JavaScript runs on`;
  return `${inUse}: nothing at its CPU limit, so the round trips at this many connections${row.held ? ' (and throttling within 10 ms quota periods)' : ''}`;
}
