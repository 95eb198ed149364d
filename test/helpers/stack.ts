import { randomBytes } from 'node:crypto';
import { deleteRateLimitBucket } from '../../shared/rate-limit/rate-limit-bucket.js';
import type { WorkerName } from '../../shared/bus/operation.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { NATS_URL } from './environment.js';
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

/**
 * The service as production runs it: one gateway and separate worker processes,
 * over real NATS (in a namespace of their own) on a fresh Postgres database.
 */
export interface Stack {
  db: TestDatabase;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  gateway: CrmProcess;
  workers: CrmProcess[];
  startWorker(name: WorkerName): Promise<CrmProcess>;
  crm(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** `crm bootstrap --json`: an organization, a workspace and its administrator. */
  bootstrap(options?: { org?: string; workspace?: string; email?: string; defaultCountry?: string }): Promise<BootstrapResult>;
  /** `crm tokens create --json`; returns the plaintext. */
  token(workspaceId: string, scopes: string[], extra?: string[]): Promise<string>;
  /** Everything every process of the stack printed. */
  allOutput(): string;
  stop(): Promise<void>;
}

export interface BootstrapResult {
  organization: { id: string; name: string };
  workspace: { id: string; name: string };
  user: { id: string; email: string };
}

export const TEST_PASSWORD = 'a long enough test password';

/** A database and the environment the service and `crm` run with; no processes yet. */
export interface TestEnvironment {
  db: TestDatabase;
  env: NodeJS.ProcessEnv;
  crm(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
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
    // Tests drive far more requests than a client would; test/rate-limits.test.ts sets its own.
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_GRANT_PER_MINUTE: '1000000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '10000',
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
  const stop = async () => {
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

    const until = Date.now() + 20_000;
    for (;;) {
      const res = await fetch(`${baseUrl}/readyz`).catch(() => null);
      if (res?.status === 200) break;
      if (Date.now() > until) throw new Error(`stack not ready: ${res ? await res.text() : 'no answer'}`);
      await new Promise((r) => setTimeout(r, 100));
    }
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
    bootstrap: async (o = {}) => {
      const suffix = randomBytes(3).toString('hex');
      const args = [
        'bootstrap',
        '--org', o.org ?? `Org ${suffix}`,
        '--workspace', o.workspace ?? `Workspace ${suffix}`,
        '--email', o.email ?? `admin-${suffix}@example.test`,
        '--password', TEST_PASSWORD,
        '--json',
      ];
      if (o.defaultCountry) args.push('--default-country', o.defaultCountry);
      const res = await crm(args);
      if (res.code !== 0) throw new Error(`bootstrap failed: ${res.stderr}`);
      return JSON.parse(res.stdout) as BootstrapResult;
    },
    token: async (workspaceId, scopes, extra = []) => {
      const res = await crm(['tokens', 'create', '--workspace', workspaceId, '--scopes', scopes.join(','), '--json', ...extra]);
      if (res.code !== 0) throw new Error(`tokens create failed: ${res.stderr}`);
      return (JSON.parse(res.stdout) as { token: string }).token;
    },
    allOutput: () => processes.map((p) => p.text()).join(''),
    stop,
  };
}
