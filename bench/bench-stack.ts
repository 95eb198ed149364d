import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connect } from 'nats';
import { WORKER_NAMES } from '../shared/bus/operation.js';
import { eventStreamName } from '../shared/events/event-stream.js';
import { migrateDatabase } from '../shared/db/migrate.js';
import { openDatabase } from '../shared/db/orm.js';
import { deleteRateLimitBucket } from '../shared/rate-limit/rate-limit-bucket.js';
import { limitCpu as cgroupLimit, type CpuQuota } from './cpu-quota.js';
import { freePort, runCrmJson, spawnQuiet, stopAll, waitReady } from './processes.js';

/**
 * The service as production runs it, for measuring: a fresh database, a gateway and
 * workers as separate processes over real NATS, one workspace and a token.
 */
export interface BenchStack {
  baseUrl: string;
  dbUrl: string;
  env: NodeJS.ProcessEnv;
  secret: string;
  workspaceId: string;
  token: string;
  gateway: ChildProcess;
  workers: Map<string, ChildProcess[]>;
  /** Starts one more worker of a kind and waits until it serves. */
  addWorker(name: string): Promise<ChildProcess>;
  /** Holds a running process to a share of a CPU (a cgroup quota), or lifts it (null); false where that is not possible. */
  limitCpu(child: ChildProcess, cpus: number | null): Promise<boolean>;
  /** Starts another process next to the stack (e.g. the baseline server); stopped with it. */
  spawn(args: string[], env: NodeJS.ProcessEnv, script?: string): ChildProcess;
  stop(): Promise<void>;
}

/**
 * `env`: settings of this stack's processes on top of the defaults (e.g. EVENTS_RECORDING);
 * `nodeFlags`: for the service's processes (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export async function startBenchStack(options: { env?: Record<string, string>; nodeFlags?: readonly string[] } = {}): Promise<BenchStack> {
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `crm_bench_${randomBytes(4).toString('hex')}`;
  const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
  const secret = randomBytes(32).toString('hex');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: dbUrl,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    CRM_SECRET: secret,
    BUS_NAMESPACE: `bench${randomBytes(3).toString('hex')}`,
    PORT: String(port),
    LOG_LEVEL: 'info',
    // Measured as a deployment runs (the container image sets it): no development checks of replies.
    NODE_ENV: 'production',
    // Far above the load: the limiter still runs (its cost is measured), it never refuses.
    RATE_LIMIT_TOKEN_PER_MINUTE: '100000000',
    RATE_LIMIT_GRANT_PER_MINUTE: '100000000',
    ...options.env,
  };
  const baseUrl = `http://127.0.0.1:${port}`;

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const children: ChildProcess[] = [];
  const workers = new Map<string, ChildProcess[]>();
  const quotas = new Map<ChildProcess, CpuQuota>();
  const stop = async (): Promise<void> => {
    await stopAll(children);
    await Promise.all([...quotas.values()].map((q) => q.release()));
    await deleteRateLimitBucket(env.NATS_URL as string, env.BUS_NAMESPACE as string).catch(() => undefined);
    await deleteEventStream(env.NATS_URL as string, env.BUS_NAMESPACE as string).catch(() => undefined);
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  };
  const spawn = (args: string[], processEnv: NodeJS.ProcessEnv, script?: string): ChildProcess => {
    const child = spawnQuiet(args, processEnv, script, script ? [] : options.nodeFlags);
    children.push(child);
    return child;
  };
  const limitCpu = async (child: ChildProcess, cpus: number | null): Promise<boolean> => {
    const existing = quotas.get(child);
    if (existing) {
      await existing.set(cpus);
      return true;
    }
    if (cpus === null) return true;
    const quota = child.pid === undefined ? null : await cgroupLimit(child.pid, cpus);
    if (quota) quotas.set(child, quota);
    return quota !== null;
  };
  /** Each worker gets an admin port, so that the bench knows when it serves (its /readyz). */
  const startWorker = async (name: string): Promise<ChildProcess> => {
    const adminPort = await freePort();
    const child = spawn(['worker', name], { ...env, ADMIN_PORT: String(adminPort) });
    workers.set(name, [...(workers.get(name) ?? []), child]);
    await waitReady(`http://127.0.0.1:${adminPort}/readyz`);
    return child;
  };

  try {
    const orm = await openDatabase({ url: dbUrl, poolMax: 2, applicationName: 'bench' });
    await migrateDatabase(orm, dbUrl);
    await orm.close();

    await Promise.all(WORKER_NAMES.map((name) => startWorker(name)));
    const gateway = spawn(['gateway'], env);
    await waitReady(`${baseUrl}/readyz`);

    const boot = await runCrmJson<{ workspace: { id: string } }>(
      ['bootstrap', '--org', 'Bench', '--workspace', 'Bench', '--email', 'bench@example.test', '--password', 'bench password 123', '--default-country', 'US'],
      env,
    );
    const { token } = await runCrmJson<{ token: string }>(['tokens', 'create', '--workspace', boot.workspace.id, '--scopes', 'contacts:write,deals:write,events:read,webhooks:write'], env);

    return {
      baseUrl,
      dbUrl,
      env,
      secret,
      workspaceId: boot.workspace.id,
      token,
      gateway,
      workers,
      addWorker: startWorker,
      limitCpu,
      spawn,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The stack's event stream, gone with it from the machine's NATS. */
async function deleteEventStream(natsUrl: string, busNamespace: string): Promise<void> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'bench cleanup' });
  try {
    await (await nc.jetstreamManager()).streams.delete(eventStreamName(busNamespace)).catch(() => false);
  } finally {
    await nc.close();
  }
}
