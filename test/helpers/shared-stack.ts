/**
 * One stack for the whole `npm test` run. Starting a gateway and four workers costs
 * seconds of CPU on a small machine, so tap's `before` script starts them once
 * (test/suite/before.ts) and its `after` script stops them (test/suite/after.ts).
 * Test files that only talk to the service through its API and the CLI share it;
 * each works in workspaces of its own, the service's own isolation boundary. A file
 * run on its own (`npx tap --node-arg=--import=tsx test/service/crm-model.test.ts`) finds no shared stack and starts its own.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WORKER_NAMES } from '../../shared/bus/operation.js';
import { NATS_ROLES, workerRole, type NatsRole } from '../../shared/bus/nats-permissions.js';
import { connectDatabase, dropTestDatabase } from './database.js';
import { SERVICE_NODE_FLAGS } from '../../cli/node-flags.js';
import { CRM_BIN, nodeCommand, ROOT } from './environment.js';
import { logsSettled, PROCESS_START_TIMEOUT_MS, runCrm } from './process.js';
import { NATS_SERVER, planNatsServer } from './nats-server.js';
import { operatorFor } from './operator.js';
import { prepareEnvironment, startStack, waitUntilReady, type NatsWatcher, type ServiceStack } from './stack.js';

const SHARED_STACK_DIR = path.join(ROOT, '.tap', 'shared-stack');
const STATE_FILE = path.join(SHARED_STACK_DIR, 'stack.json');

interface SharedStackState {
  baseUrl: string;
  databaseName: string;
  /** Each process role's environment (`cli`'s is the operator's, for `crm` commands). */
  envs: Record<NatsRole, Record<string, string>>;
  /** The service's processes; the NATS server apart, stopped after them. */
  pids: number[];
  natsPid?: number;
  natsDir: string;
  natsWatcher: NatsWatcher;
  logs: string[];
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** The suite's shared stack if one runs, else a stack of the file's own, stopped at the end of `t`. */
export async function useStack(t: Teardown): Promise<ServiceStack> {
  const shared = await attachSharedStack();
  if (shared) {
    t.teardown(() => shared.close());
    return shared;
  }
  const own = await startStack();
  t.teardown(() => own.stop());
  return own;
}

async function attachSharedStack(): Promise<(ServiceStack & { close(): Promise<void> }) | undefined> {
  const state = readState();
  if (!state || !state.pids.every(isAlive)) return undefined;
  const ready = await waitUntilReady(state.baseUrl, 0).then(() => true, () => false);
  if (!ready) return undefined;
  const envFor = (role: NatsRole): NodeJS.ProcessEnv => ({ ...state.envs[role], PATH: process.env.PATH });
  const env = envFor('cli');
  const db = connectDatabase(env.DATABASE_URL ?? '');
  const operator = operatorFor(env);
  return {
    db,
    env,
    baseUrl: state.baseUrl,
    crm: (args) => runCrm(args, env),
    bootstrap: operator.bootstrap,
    addMember: operator.addMember,
    token: operator.token,
    allOutput: async () => {
      await logsSettled();
      return state.logs.map((log) => readFileSync(log, 'utf8')).join('');
    },
    envFor,
    natsWatcher: state.natsWatcher,
    close: async () => {
      await operator.close();
      await db.close();
    },
  };
}

/** Starts the shared stack as processes that outlive the script (tap's `before`). */
export async function startSharedStack(): Promise<void> {
  await stopSharedStack();
  mkdirSync(SHARED_STACK_DIR, { recursive: true });
  const plan = await planNatsServer();
  const { db, envFor, natsWatcher } = await prepareEnvironment({}, { nats: { url: plan.url, plan, restart: notOwned, freeze: notOwned, thaw: notOwned, stop: notOwned } });
  await db.close();
  const envs = Object.fromEntries(NATS_ROLES.map((role) => [role, definedOnly(envFor(role))])) as SharedStackState['envs'];
  const state: SharedStackState = { baseUrl: '', databaseName: db.name, envs, pids: [], natsDir: plan.dir, natsWatcher, logs: [] };
  // Written before anything starts, so that `after` cleans up even if starting fails.
  const save = () => writeFileSync(STATE_FILE, JSON.stringify(state, null, 2), { mode: 0o600 });
  save();

  const launch = (label: string, command: [string, string[]], env: NodeJS.ProcessEnv) => {
    const log = path.join(SHARED_STACK_DIR, `${label}.log`);
    const out = openSync(log, 'w');
    // Detached, with output in files: the processes outlive this script and its pipes.
    const child = spawn(...command, { cwd: ROOT, env, stdio: ['ignore', out, out], detached: true });
    closeSync(out);
    child.unref();
    if (child.pid === undefined) throw new Error(`could not start ${label}`);
    state.logs.push(log);
    return { label, log, pid: child.pid };
  };
  const launchCrm = (label: string, args: string[], role: NatsRole) => {
    const proc = launch(label, nodeCommand([...SERVICE_NODE_FLAGS, CRM_BIN, ...args]), envFor(role));
    state.pids.push(proc.pid);
    save();
    return proc;
  };

  const nats = launch('nats-server', [NATS_SERVER, plan.args], {});
  state.natsPid = nats.pid;
  save();
  await waitForLine(nats, /Server is ready/);
  const workers = WORKER_NAMES.map((name) => launchCrm(`worker-${name}`, ['worker', name], workerRole(name)));
  await Promise.all(workers.map((w) => waitForLine(w, /"msg":"worker ready"/)));
  const gateway = launchCrm('gateway', ['gateway'], 'gateway');
  const [, port] = await waitForLine(gateway, /"port":(\d+)/);
  state.baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(state.baseUrl);
  save();
}

async function notOwned(): Promise<void> {
  throw new Error('the shared NATS server is stopped by stopSharedStack');
}

/** Stops the shared stack and drops its database (tap's `after`); nothing to do if none runs. */
export async function stopSharedStack(): Promise<void> {
  const state = readState();
  if (!state) return;
  await stopAll(state.pids);
  if (state.natsPid) await stopAll([state.natsPid]);
  await dropTestDatabase(state.databaseName);
  rmSync(state.natsDir, { recursive: true, force: true });
  rmSync(SHARED_STACK_DIR, { recursive: true, force: true });
}

async function stopAll(pids: number[]): Promise<void> {
  for (const pid of pids) signal(pid, 'SIGTERM');
  const until = Date.now() + 15_000;
  while (pids.some(isAlive) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids.filter(isAlive)) signal(pid, 'SIGKILL');
}

function readState(): SharedStackState | undefined {
  try {
    return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as SharedStackState;
  } catch {
    return undefined;
  }
}

async function waitForLine(proc: { label: string; log: string; pid: number }, pattern: RegExp, timeoutMs = PROCESS_START_TIMEOUT_MS): Promise<RegExpMatchArray> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = readFileSync(proc.log, 'utf8');
    const match = text.match(pattern);
    if (match) return match;
    if (!isAlive(proc.pid)) throw new Error(`${proc.label} exited before printing ${pattern}:\n${text}`);
    if (Date.now() > until) throw new Error(`${proc.label} did not print ${pattern} in ${timeoutMs} ms:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
