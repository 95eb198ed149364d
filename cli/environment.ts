import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BusClient, type BusObserver } from '../shared/bus/bus-client.js';
import { InProcessTransport } from '../shared/bus/in-process-transport.js';
import { natsConnectionOptions } from '../shared/bus/nats-identity.js';
import { requesterInboxesOf, type NatsRole } from '../shared/bus/nats-permissions.js';
import { NatsTransport } from '../shared/bus/nats-transport.js';
import type { BusTransport } from '../shared/bus/transport.js';
import { ConfigError, type Config } from '../shared/config.js';
import { useEmbeddedPostgres } from '../shared/db/embedded-postgres.js';
import type { Logger } from '../shared/logger.js';

/**
 * Where this process finds Postgres, NATS and its secret: from the environment when
 * set (production), otherwise the embedded default under CRM_DATA_DIR.
 */
export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  release(): Promise<void>;
}

export async function resolveDatabase(config: Config, log: Logger, role: 'server' | 'command'): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, release: async () => undefined };
  const db = await useEmbeddedPostgres({ dataDir: config.dataDir, role, log });
  return { url: db.url, embedded: true, release: db.release };
}

/** CRM_SECRET; the embedded default keeps a generated one in CRM_DATA_DIR/secret. */
export async function resolveSecret(config: Config): Promise<string> {
  if (config.secret) return config.secret;
  if (config.databaseUrl) {
    throw new ConfigError('CRM_SECRET is required when DATABASE_URL is set (at least 32 random characters, e.g. from `openssl rand -hex 32`, the same for every worker).');
  }
  const file = path.join(config.dataDir, 'secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}

/**
 * The bus: NATS with this process's credentials when NATS_URL is set, else in-process.
 * `role` names the permissions the process needs (shared/bus/nats-permissions.ts) and so
 * the reply inbox it reads.
 */
export async function connectTransport(config: Config, log: Logger, name: string, role: NatsRole): Promise<BusTransport> {
  if (!config.natsUrl) return new InProcessTransport();
  // A shutdown waits for an unreachable NATS as long as a requester waits for a reply: no longer is of use to anyone.
  return NatsTransport.connect(config.natsUrl, name, log, natsConnectionOptions(config, role), { replyPrefixes: requesterInboxesOf(config.busNamespace), drainGraceMs: config.busTimeoutMs });
}


export function requireNats(config: Config, command: string): string {
  if (!config.natsUrl) {
    throw new ConfigError(
      `crm ${command} talks to the other processes over NATS: set NATS_URL (e.g. nats://127.0.0.1:4222), or use "crm start", which runs everything in one process.`,
    );
  }
  return config.natsUrl;
}

/** `operatorCallKey`: the command line's, to sign its operator calls; gateways have none. */
export function busClient(transport: BusTransport, config: Config, options: { observer?: BusObserver; operatorCallKey?: Buffer } = {}): BusClient {
  return new BusClient(transport, config.busNamespace, config.busTimeoutMs, { ...options, validateReplies: config.validateReplies });
}
