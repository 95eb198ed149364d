import type { KV } from 'nats';
import t from 'tap';
import { NatsKvRateLimitStore } from '../../shared/rate-limit/nats-kv-rate-limit-store.js';

/** The part of a KV bucket the store uses, in memory. */
function memoryBucket(): KV {
  const values = new Map<string, { value: string; revision: number }>();
  const bucket = {
    get: async (key: string) => {
      const entry = values.get(key);
      return entry ? { operation: 'PUT', revision: entry.revision, string: () => entry.value } : null;
    },
    create: async (key: string, value: Uint8Array) => {
      values.set(key, { value: new TextDecoder().decode(value), revision: 1 });
      return 1;
    },
    update: async (key: string, value: Uint8Array, revision: number) => {
      values.set(key, { value: new TextDecoder().decode(value), revision: revision + 1 });
      return revision + 1;
    },
  };
  return bucket as unknown as KV;
}

t.test('a bucket that could not be opened is opened again on the next lease', async (t) => {
  let opens = 0;
  const store = new NatsKvRateLimitStore(async () => {
    opens++;
    if (opens === 1) throw new Error('JetStream not ready');
    return memoryBucket();
  });
  await t.rejects(store.lease('token.a.1', 5, 10), /JetStream not ready/);
  t.same(await store.lease('token.a.1', 5, 10), { granted: 5, used: 5 });
  t.same(await store.lease('token.a.1', 5, 10), { granted: 5, used: 10 });
  t.same(await store.lease('token.a.1', 5, 10), { granted: 0, used: 10 }, 'the limit holds');
  t.equal(opens, 2, 'opened once more, then kept');
});
