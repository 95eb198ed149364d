import { randomBytes } from 'node:crypto';
import { workerRole, type NatsRole } from '../../shared/bus/nats-permissions.js';
import { WORKER_NAMES, type WorkerName } from '../../shared/bus/operation.js';
import { createTestDatabase, type DatabaseAccess, type TestDatabase } from './database.js';
import { natsEnvOf } from './nats-server.js';
import { operatorFor, type Operator } from './operator.js';
import { startPrivateNats, type PrivateNats } from './private-services.js';
import { CrmProcess, logsSettled, PROCESS_START_TIMEOUT_MS, runCrm } from './process.js';

export interface StackOptions {
  /** How many copies of each worker to run (default one of each). */
  workers?: Partial<Record<WorkerName, number>>;
  env?: Record<string, string>;
  /** A Postgres and a NATS server that the test controls (test/helpers/private-services.ts). */
  services?: PrivateServices;
}

export interface PrivateServices {
  /** Else the machine's Postgres. */
  adminDatabaseUrl?: string;
  /** Else one started for the stack. */
  nats?: PrivateNats;
}

/** What a test needs of a running service: its address, its database and the `crm` CLI bound to it. */
export interface ServiceStack {
  db: DatabaseAccess;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  crm(args: string[]): Promise<CrmResult>;
  bootstrap: Operator['bootstrap'];
  addMember: Operator['addMember'];
  token: Operator['token'];
  /** Everything every process of the stack printed, including log lines still buffered when called. */
  allOutput(): Promise<string>;
  /** The environment of a process in `role` (its NATS identity; a gateway gets no CRM_SECRET or DATABASE_URL). */
  envFor(role: NatsRole): NodeJS.ProcessEnv;
  /** A NATS identity no service process has, that may watch any subject: for tests that count bus traffic. */
  natsWatcher: NatsWatcher;
}

export interface NatsWatcher {
  url: string;
  seed: string;
}

/**
 * The service as production runs it, owned by one test file: one gateway and
 * separate worker processes, over real NATS (in a namespace of their own) on a
 * fresh Postgres database.
 */
export interface Stack extends ServiceStack {
  db: TestDatabase;
  gateway: CrmProcess;
  workers: CrmProcess[];
  startWorker(name: WorkerName): Promise<CrmProcess>;
  stop(): Promise<void>;
}

export type CrmResult = Awaited<ReturnType<typeof runCrm>>;

export { TEST_PASSWORD, type BootstrapResult } from './operator.js';

/** A database and the environment the service and `crm` run with; no processes yet. */
export interface TestEnvironment {
  db: TestDatabase;
  /** The operator's: what `crm` commands run with. */
  env: NodeJS.ProcessEnv;
  envFor(role: NatsRole): NodeJS.ProcessEnv;
  natsWatcher: NatsWatcher;
  crm(args: string[]): Promise<CrmResult>;
  stop(): Promise<void>;
}

/**
 * NATS with the shipped authorization (every process connects with its own role's key,
 * as in production) in a server of the stack's own, unless the test brings one.
 */
export async function prepareEnvironment(extra: Record<string, string> = {}, services: PrivateServices = {}): Promise<TestEnvironment> {
  const nats = services.nats ?? (await startPrivateNats());
  const db = await createTestDatabase(services.adminDatabaseUrl).catch(async (error: unknown) => {
    if (!services.nats) await nats.stop();
    throw error;
  });
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: db.url,
    CRM_SECRET: randomBytes(32).toString('hex'),
    PORT: '0',
    LOG_LEVEL: 'info',
    // Tests drive far more requests than a client would; test/service/rate-limits.test.ts sets its own.
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_GRANT_PER_MINUTE: '1000000',
    RATE_LIMIT_SESSION_PER_MINUTE: '1000000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '10000',
    RATE_LIMIT_OAUTH_PER_MINUTE: '1000000',
    RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '10000',
    OAUTH_REGISTRATIONS_PER_HOUR: '100000',
    // Four test files share two cores, and every bootstrap and sign-in queues for a password
    // hash on the tokens worker: a call can wait past the 5 s default there. The tests of
    // deadlines start their own stacks with their own value.
    BUS_TIMEOUT_MS: '15000',
    // Every reply checked against its contract, in the workers and the gateway.
    VALIDATE_REPLIES: 'true',
  };
  const envFor = (role: NatsRole): NodeJS.ProcessEnv => processEnv(base, natsEnvOf(nats.plan, role), role, extra);
  const env = envFor('cli');
  const stop = async () => {
    await db.drop();
    if (!services.nats) await nats.stop();
  };
  return { db, env, envFor, natsWatcher: { url: nats.url, seed: nats.plan.admin.seed }, crm: (args) => runCrm(args, env), stop };
}

/** A gateway holds neither the database nor CRM_SECRET (it could sign operator calls with it). */
function processEnv(base: NodeJS.ProcessEnv, nats: Record<string, string>, role: NatsRole, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...base, ...nats, ...extra };
  if (role === 'gateway') {
    delete env.CRM_SECRET;
    delete env.DATABASE_URL;
  }
  return env;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const { db, env, envFor, natsWatcher, crm, stop: dropEnvironment } = await prepareEnvironment(options.env, options.services);
  const processes: CrmProcess[] = [];
  const workers: CrmProcess[] = [];
  const operator = operatorFor(env);
  const stop = async () => {
    await operator.close();
    await Promise.all(processes.map((p) => p.stop()));
    await dropEnvironment();
  };

  const startWorker = async (name: WorkerName): Promise<CrmProcess> => {
    const proc = new CrmProcess(`worker ${name}`, ['worker', name], envFor(workerRole(name)));
    processes.push(proc);
    workers.push(proc);
    await proc.waitFor(/"msg":"worker ready"/);
    return proc;
  };

  const counts: Record<WorkerName, number> = { ...(Object.fromEntries(WORKER_NAMES.map((name) => [name, 1])) as Record<WorkerName, number>), ...options.workers };
  const starting: Promise<CrmProcess>[] = [];
  for (const [name, count] of Object.entries(counts) as [WorkerName, number][]) {
    for (let i = 0; i < count; i++) starting.push(startWorker(name));
  }
  const gateway = new CrmProcess('gateway', ['gateway'], envFor('gateway'));
  processes.push(gateway);
  let baseUrl: string;
  try {
    await Promise.all(starting);
    const [, port] = await gateway.waitFor(/"port":(\d+)/);
    baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilReady(baseUrl);
  } catch (error) {
    // The test gets no stack to stop: without this its processes and database outlive it.
    await stop();
    throw error;
  }

  return {
    db,
    env,
    baseUrl,
    gateway,
    workers,
    startWorker,
    crm,
    bootstrap: operator.bootstrap,
    addMember: operator.addMember,
    token: operator.token,
    allOutput: async () => {
      await logsSettled();
      return processes.map((p) => p.text()).join('');
    },
    envFor,
    natsWatcher,
    stop,
  };
}

/** Resolves once the gateway's /readyz answers 200 (its workers answer on the bus). */
export async function waitUntilReady(baseUrl: string, timeoutMs = PROCESS_START_TIMEOUT_MS): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    if (res?.status === 200) return;
    if (Date.now() > until) throw new Error(`stack not ready: ${res ? await res.text() : 'no answer'}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
