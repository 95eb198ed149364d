import { randomBytes } from 'node:crypto';
import { deleteRateLimitBucket } from '../../shared/rate-limit/rate-limit-bucket.js';
import type { WorkerName } from '../../shared/bus/operation.js';
import { createTestDatabase, type DatabaseAccess, type TestDatabase } from './database.js';
import { NATS_URL } from './environment.js';
import { operatorFor, type Operator } from './operator.js';
import { CrmProcess, runCrm } from './process.js';

export interface StackOptions {
  /** How many copies of each worker to run (default one of each). */
  workers?: Partial<Record<WorkerName, number>>;
  env?: Record<string, string>;
  /** Postgres and NATS of the test's own (test/helpers/private-services.ts), instead of the machine's. */
  services?: PrivateServiceUrls;
}

export interface PrivateServiceUrls {
  adminDatabaseUrl: string;
  natsUrl: string;
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
  /** Everything every process of the stack printed. */
  allOutput(): string;
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
  env: NodeJS.ProcessEnv;
  crm(args: string[]): Promise<CrmResult>;
  stop(): Promise<void>;
}

export async function prepareEnvironment(extra: Record<string, string> = {}, services?: PrivateServiceUrls): Promise<TestEnvironment> {
  const db = await createTestDatabase(services?.adminDatabaseUrl);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: db.url,
    NATS_URL: services?.natsUrl ?? NATS_URL,
    CRM_SECRET: randomBytes(32).toString('hex'),
    BUS_NAMESPACE: `t${randomBytes(5).toString('hex')}`,
    PORT: '0',
    LOG_LEVEL: 'info',
    // Tests drive far more requests than a client would; test/service/rate-limits.test.ts sets its own.
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_GRANT_PER_MINUTE: '1000000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '10000',
    OAUTH_REGISTRATIONS_PER_HOUR: '100000',
    ...extra,
  };
  const stop = async () => {
    await db.drop();
    await deleteRateLimitBucket(env.NATS_URL as string, env.BUS_NAMESPACE as string).catch(() => undefined);
  };
  return { db, env, crm: (args) => runCrm(args, env), stop };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const { db, env, crm, stop: dropEnvironment } = await prepareEnvironment(options.env, options.services);
  const processes: CrmProcess[] = [];
  const workers: CrmProcess[] = [];
  const operator = operatorFor(env);
  const stop = async () => {
    await operator.close();
    await Promise.all(processes.map((p) => p.stop()));
    await dropEnvironment();
  };

  const startWorker = async (name: WorkerName): Promise<CrmProcess> => {
    const proc = new CrmProcess(`worker ${name}`, ['worker', name], env);
    processes.push(proc);
    workers.push(proc);
    await proc.waitFor(/"msg":"worker ready"/);
    return proc;
  };

  const counts = { contacts: 1, deals: 1, schema: 1, tokens: 1, ...options.workers };
  const starting: Promise<CrmProcess>[] = [];
  for (const [name, count] of Object.entries(counts) as [WorkerName, number][]) {
    for (let i = 0; i < count; i++) starting.push(startWorker(name));
  }
  const gateway = new CrmProcess('gateway', ['gateway'], env);
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
    allOutput: () => processes.map((p) => p.text()).join(''),
    stop,
  };
}

/** Resolves once the gateway's /readyz answers 200 (its workers answer on the bus). */
export async function waitUntilReady(baseUrl: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    if (res?.status === 200) return;
    if (Date.now() > until) throw new Error(`stack not ready: ${res ? await res.text() : 'no answer'}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
