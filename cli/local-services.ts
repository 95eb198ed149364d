import type { BusClient } from '../shared/bus/bus-client.js';
import { InProcessTransport } from '../shared/bus/in-process-transport.js';
import type { JetStreamAccess } from '../shared/bus/nats-transport.js';
import type { BusTransport } from '../shared/bus/transport.js';
import { operatorContext, type CallContext } from '../shared/contracts/call-context.js';
import { resolveWorkspace } from '../shared/contracts/identity.js';
import { ConfigError, type Config } from '../shared/config.js';
import { migrateDatabase } from '../shared/db/migrate.js';
import { openDatabase } from '../shared/db/orm.js';
import { newId } from '../shared/ids.js';
import type { Logger } from '../shared/logger.js';
import { deriveSecrets } from '../shared/secrets.js';
import { WORKERS } from '../workers/index.js';
import { startWorkers } from '../workers/runtime/start-workers.js';
import { connectCommandNats } from './command-nats.js';
import { reachDatabase } from './database-reach.js';
import { busClient, resolveDatabase, resolveSecret } from './environment.js';

/**
 * For administrative commands: the worker code itself, run in this process over an
 * in-process bus, against the configured (or embedded) database. The commands work
 * whether or not any service process is running, through the same contracts.
 */
export interface LocalServices {
  bus: BusClient;
  /** With NATS_URL: a client over the NATS connection the commands' events use, to reach running workers. */
  natsBus: BusClient | null;
  /** With NATS_URL: JetStream on that connection (the event stream). */
  jetStream: JetStreamAccess | null;
  requestId: string;
  /** The operator's context in a workspace given by id or name. */
  inWorkspace(ref: string): Promise<{ context: CallContext; workspace: { id: string; name: string } }>;
  close(): Promise<void>;
}

export async function openLocalServices(config: Config, log: Logger): Promise<LocalServices> {
  const db = await resolveDatabase(config, log, 'command');
  const cleanups: (() => Promise<unknown>)[] = [() => db.release()];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err: unknown) => log.warn({ err }, 'cleanup failed'));
  };
  try {
    const secrets = deriveSecrets(await resolveSecret(config));
    const orm = await openDatabase({ url: db.url, poolMax: 4, applicationName: 'crm command' });
    cleanups.push(() => orm.close());
    // The migrator reads a database it cannot reach (absent, refusing this role) as one with
    // every migration pending: reach it first, so the command says what is wrong.
    await reachDatabase(orm, db.url, db.embedded);
    if (db.embedded) await migrateDatabase(orm, db.url, { log });
    else if ((await orm.migrator.getPending()).length > 0) {
      throw new ConfigError('The database has migrations pending: run "crm migrate" first.');
    }

    const transport = new InProcessTransport();
    // Broadcasts such as a token revocation must reach running gateways, so they go to NATS when there is one.
    let broadcasts: BusTransport = transport;
    let natsBus: BusClient | null = null;
    let jetStream: JetStreamAccess | null = null;
    if (config.natsUrl) {
      const nats = await connectCommandNats({ ...config, natsUrl: config.natsUrl }, 'crm command', log);
      cleanups.push(() => nats.close());
      broadcasts = nats;
      jetStream = nats;
      natsBus = busClient(nats, config, { operatorCallKey: secrets.operatorCallKey });
    }
    const workers = startWorkers(Object.values(WORKERS), { orm, secrets, bus: transport, busNamespace: config.busNamespace, broadcasts, webhooks: config.webhooks, events: config.events, validateReplies: config.validateReplies }, log, 8, { background: false });
    cleanups.push(() => workers.drain());
    const bus = busClient(transport, config, { operatorCallKey: secrets.operatorCallKey });
    const requestId = newId('request');

    return {
      bus,
      natsBus,
      jetStream,
      requestId,
      inWorkspace: async (ref) => {
        const { result } = await bus.call(resolveWorkspace, { ref }, { context: null, requestId });
        return {
          workspace: { id: result.id, name: result.name },
          context: operatorContext(result.id),
        };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
