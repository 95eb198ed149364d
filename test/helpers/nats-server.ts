import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { renderNatsAuthorization } from '../../shared/bus/nats-authorization.js';
import { newNatsKeyPair, newRoleKeyPairs, type NatsKeyPair } from '../../shared/bus/nats-keys.js';
import type { NatsRole } from '../../shared/bus/nats-permissions.js';
import { freePort } from '../../shared/free-port.js';

export const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p)) ?? 'nats-server';

/**
 * A NATS server as production runs it, for one test stack: the authorization block that
 * `crm nats config` prints (keys generated now, one per role), JetStream, its own port
 * and store. Tests also get a `test-admin` identity that may do anything, for checking
 * and cleaning up, never used by a service process.
 */
export interface NatsServerPlan {
  url: string;
  port: number;
  namespace: string;
  dir: string;
  /** nats-server's arguments. */
  args: string[];
  keys: Record<NatsRole, NatsKeyPair>;
  admin: NatsKeyPair;
}

/** `jetStream: false` plans a server without JetStream: the bus works, a key-value store cannot. */
export async function planNatsServer(options: { tls?: { cert: string; key: string }; jetStream?: boolean } = {}): Promise<NatsServerPlan> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crm-nats-'));
  const namespace = `t${randomBytes(5).toString('hex')}`;
  const keys = newRoleKeyPairs();
  const admin = newNatsKeyPair();
  const adminUser = `    # test-admin (tests only)\n    { nkey: ${JSON.stringify(admin.publicKey)} }`;
  const authorization = renderNatsAuthorization(namespace, (role) => ({ key: keys[role].publicKey }), [adminUser]);
  const tls = options.tls ? `tls { cert_file: ${JSON.stringify(options.tls.cert)}, key_file: ${JSON.stringify(options.tls.key)} }\n` : '';
  const configFile = path.join(dir, 'nats-server.conf');
  await writeFile(configFile, `${authorization}${tls}`, { mode: 0o600 });
  const store = path.join(dir, 'store');
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    namespace,
    dir,
    args: ['-c', configFile, '-a', '127.0.0.1', '-p', String(port), ...(options.jetStream === false ? [] : ['-js', '-sd', store])],
    keys,
    admin,
  };
}

/** The environment a process of `role` connects with. */
export function natsEnvOf(plan: NatsServerPlan, role: NatsRole): Record<string, string> {
  return { NATS_URL: plan.url, BUS_NAMESPACE: plan.namespace, NATS_NKEY_SEED: plan.keys[role].seed };
}
