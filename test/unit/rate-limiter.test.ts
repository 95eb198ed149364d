import t from 'tap';
import { RateLimiter } from '../../gateway/rate-limit/rate-limiter.js';
import { createLogger } from '../../shared/logger.js';
import { MemoryRateLimitStore } from '../../shared/rate-limit/memory-rate-limit-store.js';
import type { RateLimitStore } from '../../shared/rate-limit/rate-limit-store.js';

const log = createLogger({ level: 'silent', component: 'test', destination: { write: () => undefined } });

/** A shared store seen by several gateways, that records each lease and can be held back. */
class RecordingStore implements RateLimitStore {
  readonly leases: number[] = [];
  private readonly inner = new MemoryRateLimitStore();
  hold: Promise<void> | null = null;

  async lease(key: string, want: number, limit: number) {
    this.leases.push(want);
    if (this.hold) await this.hold;
    return this.inner.lease(key, want, limit);
  }
}

t.test('a busy key renews its lease ahead, so requests do not wait at lease boundaries', async (t) => {
  const store = new RecordingStore();
  // 1,000 a minute: leases of 20.
  const limiter = new RateLimiter('token', 1000, store, log);
  for (let i = 0; i < 15; i++) t.ok((await limiter.take('tok_a'))?.allowed);
  t.same(store.leases, [20, 20], 'the second lease starts once a quarter of the first is left');

  // While the store is slow, the counts already leased still answer at once.
  let release = () => undefined as void;
  store.hold = new Promise<void>((resolve) => (release = resolve));
  const answered: boolean[] = [];
  const pending = Array.from({ length: 25 }, () => limiter.take('tok_a').then((v) => answered.push(v?.allowed ?? false)));
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(answered.length, 25, 'the 25 requests within what was leased did not wait for the store');
  release();
  await Promise.all(pending);
});

t.test('a request that a held lease covers is decided at once, without a promise', async (t) => {
  const store = new RecordingStore();
  const limiter = new RateLimiter('token', 1000, store, log);
  t.equal(limiter.takeHeld('tok_b'), undefined, 'nothing leased yet: the store must be asked');
  t.ok((await limiter.take('tok_b'))?.allowed, 'the first request leases');
  const held = limiter.takeHeld('tok_b');
  t.ok(held?.allowed, 'the next is decided synchronously from the lease');
  t.equal(held?.remaining, 1000 - 20 + 18, 'and counted');

  const tiny = new RateLimiter('token', 1, store, log);
  t.ok((await tiny.take('tok_c'))?.allowed);
  t.equal((await tiny.take('tok_c'))?.allowed, false, 'the window is spent');
  t.equal(tiny.takeHeld('tok_c')?.allowed, false, 'and a spent window is refused at once too');
});

t.test('across gateways the limit is never exceeded, prefetching included', async (t) => {
  const store = new RecordingStore();
  const gateways = [new RateLimiter('token', 300, store, log), new RateLimiter('token', 300, store, log)];
  let allowed = 0;
  for (let i = 0; i < 400; i++) if ((await gateways[i % 2]?.take('tok_b'))?.allowed) allowed++;
  t.ok(allowed <= 300, `${allowed} allowed`);
  t.ok(allowed >= 300 - 2 * 6 * 1.25, 'at most the counts the other gateway holds are lost');
});

t.test('small limits lease one count at a time and never ahead', async (t) => {
  const store = new RecordingStore();
  const limiter = new RateLimiter('token', 30, store, log);
  const verdicts = [];
  for (let i = 0; i < 32; i++) verdicts.push(await limiter.take('tok_c'));
  t.equal(store.leases.length, 31, 'one lease per request, plus the refused one');
  t.same(verdicts.map((v) => v?.allowed), [...Array<boolean>(30).fill(true), false, false]);
  t.same(verdicts.slice(0, 3).map((v) => v?.remaining), [29, 28, 27]);
});
