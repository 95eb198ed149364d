import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect, nkeyAuthenticator, type NatsConnection } from 'nats';
import { inboxPrefixOf, type NatsRole } from '../../shared/bus/nats-permissions.js';
import { useEmbeddedPostgres, type EmbeddedDatabase } from '../../shared/db/embedded-postgres.js';
import { createLogger } from '../../shared/logger.js';
import { NATS_SERVER, planNatsServer, type NatsServerPlan } from './nats-server.js';
import { PROCESS_START_TIMEOUT_MS } from './process.js';

/**
 * A NATS server and a Postgres cluster that belong to one test, so that the test may
 * restart them without disturbing any other test running at the same time.
 */
export interface PrivateNats {
  url: string;
  /** Its users and namespace: the authorization configuration the service ships, keys made for this test. */
  plan: NatsServerPlan;
  /** Stops the server (SIGKILL when `hard`) and starts it again on the same port and store. */
  restart(options?: { downMs?: number; hard?: boolean }): Promise<void>;
  /**
   * Freezes the server (SIGSTOP) until {@link thaw}: its port still accepts connections, but
   * nothing answers, as when its host or the network to it goes silent. Unlike a stopped
   * server, whose refusals clients notice at once, clients notice only when their pings go
   * unanswered.
   */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

async function waitForPort(port: number, timeoutMs = PROCESS_START_TIMEOUT_MS): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startPrivateNats(options: Parameters<typeof planNatsServer>[0] = {}): Promise<PrivateNats> {
  const plan = await planNatsServer(options);
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    child = spawn(NATS_SERVER, plan.args, { stdio: 'ignore' });
    await waitForPort(plan.port);
  };
  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };

  await start();
  return {
    url: plan.url,
    plan,
    restart: async ({ downMs = 1000, hard = false } = {}) => {
      await halt(hard ? 'SIGKILL' : 'SIGTERM');
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    freeze: () => void child?.kill('SIGSTOP'),
    thaw: () => void child?.kill('SIGCONT'),
    stop: async () => {
      child?.kill('SIGCONT');
      await halt('SIGTERM');
      await rm(plan.dir, { recursive: true, force: true });
    },
  };
}

/**
 * A connection to a private NATS server as one of the service's identities (its key and its
 * inbox prefix, as the service's processes connect), or as the test's administrator; closed
 * when `t` ends.
 */
export async function connectAs(t: { teardown(fn: () => unknown): void }, nats: PrivateNats, who: NatsRole | 'test-admin'): Promise<NatsConnection> {
  const seed = who === 'test-admin' ? nats.plan.admin.seed : nats.plan.keys[who].seed;
  const nc = await connect({
    servers: nats.url,
    reconnect: false,
    authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)),
    ...(who === 'test-admin' ? {} : { inboxPrefix: inboxPrefixOf(nats.plan.namespace, who) }),
  });
  t.teardown(() => nc.close());
  return nc;
}

export interface PrivatePostgres {
  /** A superuser URL to the `postgres` database, for creating test databases. */
  adminUrl: string;
  /** Stops the cluster (a fast shutdown: sessions are cut) and starts it again on the same port. */
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** A real Postgres from the `embedded-postgres` binaries, in a temporary directory. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crm-pg-'));
  const log = createLogger({ level: 'silent', component: 'test-postgres' });
  let db: EmbeddedDatabase = await useEmbeddedPostgres({ dataDir, role: 'server', log });
  const adminUrl = Object.assign(new URL(db.url), { pathname: '/postgres' }).toString();
  return {
    adminUrl,
    restart: async ({ downMs = 1000 } = {}) => {
      await db.release();
      await new Promise((r) => setTimeout(r, downMs));
      db = await useEmbeddedPostgres({ dataDir, role: 'server', log });
    },
    stop: async () => {
      await db.release();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
