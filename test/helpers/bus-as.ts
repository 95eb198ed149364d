import { BusClient } from '../../shared/bus/bus-client.js';
import { natsConnectionOptions } from '../../shared/bus/nats-identity.js';
import type { NatsRole } from '../../shared/bus/nats-permissions.js';
import { NatsTransport } from '../../shared/bus/nats-transport.js';
import { loadConfig } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import type { ServiceStack } from './stack.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * A bus client on NATS as a process in `role` with environment `env` connects. With
 * `operatorCallKey` it signs operator calls, as the command line does.
 */
export async function connectBus(env: NodeJS.ProcessEnv, role: NatsRole, options: { timeoutMs?: number; operatorCallKey?: Buffer } = {}): Promise<BusClient> {
  const config = loadConfig(env);
  const log = createLogger({ level: 'warn', component: `test as ${role}`, fd: 2 });
  const transport = await NatsTransport.connect(config.natsUrl ?? '', `test as ${role}`, log, natsConnectionOptions(config, role));
  return new BusClient(transport, config.busNamespace, options.timeoutMs ?? 5000, { operatorCallKey: options.operatorCallKey, validateReplies: true });
}

/** A bus client on the stack's NATS with the identity of `role` (e.g. calling workers as a gateway would). */
export async function busAs(t: Teardown, stack: Pick<ServiceStack, 'envFor'>, role: NatsRole, options: { timeoutMs?: number } = {}): Promise<BusClient> {
  const bus = await connectBus(stack.envFor(role), role, options);
  t.teardown(() => bus.transport.close());
  return bus;
}
