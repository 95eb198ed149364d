import { connect, nkeyAuthenticator } from 'nats';
import { subjectOf, type Operation } from '../../shared/bus/operation.js';
import type { ServiceStack } from './stack.js';

/** Counts how often one operation is called on the bus while a step runs. */
export interface BusCallCounter {
  during(step: () => Promise<void>): Promise<number>;
}

/**
 * A plain subscription on the stack's NATS to the operation's subject: it sees every request
 * the gateway sends to the workers of that kind (a queue group does not hide them from it).
 */
export async function countBusCalls(t: { teardown(fn: () => unknown): void }, stack: Pick<ServiceStack, 'natsWatcher' | 'env'>, op: Operation): Promise<BusCallCounter> {
  const nc = await connect({ servers: stack.natsWatcher.url, authenticator: nkeyAuthenticator(new TextEncoder().encode(stack.natsWatcher.seed)) });
  t.teardown(() => nc.close());
  let calls = 0;
  const watching = nc.subscribe(subjectOf(stack.env.BUS_NAMESPACE ?? '', op));
  void (async () => {
    for await (const _ of watching) calls++;
  })();
  await nc.flush();
  return {
    during: async (step) => {
      const before = calls;
      await step();
      await nc.flush();
      await new Promise((r) => setTimeout(r, 100));
      return calls - before;
    },
  };
}
