import { workerRole } from '../../shared/bus/nats-permissions.js';
import { startPrivateNats, type PrivateNats } from './private-services.js';
import { CrmProcess } from './process.js';
import { prepareEnvironment, type TestEnvironment } from './stack.js';

export interface BusUnderAttack {
  nats: PrivateNats;
  env: TestEnvironment;
  /** A tokens worker, ready, connected with its own role's key. */
  worker: CrmProcess;
}

/**
 * The bus as an attacker on the network sees it: a NATS server of the test's own with the
 * authorization block the service ships (`crm nats config`), and a tokens worker serving on it.
 * Stopped when the test ends.
 */
export async function busUnderAttack(t: { teardown(fn: () => Promise<void>): void }): Promise<BusUnderAttack> {
  const nats = await startPrivateNats();
  const env = await prepareEnvironment({}, { nats });
  const worker = new CrmProcess('worker tokens', ['worker', 'tokens'], env.envFor(workerRole('tokens')));
  t.teardown(async () => {
    await worker.stop();
    await env.stop();
    await nats.stop();
  });
  await worker.waitFor(/"msg":"worker ready"/);
  return { nats, env, worker };
}
