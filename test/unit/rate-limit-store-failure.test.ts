import { Registry } from 'prom-client';
import t from 'tap';
import { RateLimiter, STORE_RETRY_MS, STORE_WAIT_MS } from '../../gateway/rate-limit/rate-limiter.js';
import { storeUnavailableCounter, type StoreFailurePolicy } from '../../gateway/rate-limit/store-failure.js';
import { createLogger } from '../../shared/logger.js';
import { MemoryRateLimitStore } from '../../shared/rate-limit/memory-rate-limit-store.js';
import type { RateLimitStore } from '../../shared/rate-limit/rate-limit-store.js';

/** A shared store that can be made unreachable, and counts how often it was asked. */
class FlakyStore implements RateLimitStore {
  down = false;
  asked = 0;
  private readonly inner = new MemoryRateLimitStore();

  lease(key: string, want: number, limit: number) {
    this.asked++;
    return this.down ? Promise.reject(new Error('JetStream not enabled')) : this.inner.lease(key, want, limit);
  }
}

/** A store whose leases are answered only when the test says so, as a JetStream call sent while NATS restarts. */
class StalledStore implements RateLimitStore {
  private readonly waiting: { answer: () => void; fail: () => void }[] = [];
  private readonly inner = new MemoryRateLimitStore();

  lease(key: string, want: number, limit: number) {
    return new Promise<{ granted: number; used: number }>((resolve, reject) => {
      this.waiting.push({ answer: () => void this.inner.lease(key, want, limit).then(resolve), fail: () => reject(new Error('TIMEOUT')) });
    });
  }

  get stalled(): number {
    return this.waiting.length;
  }

  release(how: 'answer' | 'fail'): void {
    for (const lease of this.waiting.splice(0)) lease[how]();
  }
}

function limiterOver<S extends RateLimitStore>(store: S, policy: StoreFailurePolicy, limit = 5) {
  const lines: string[] = [];
  const log = createLogger({ level: 'warn', component: 'test', destination: { write: (line: string) => void lines.push(line) } });
  const registry = new Registry();
  const limiter = new RateLimiter('sign-in', limit, store, log, { policy, decided: storeUnavailableCounter(registry) });
  return { limiter, store, lines, registry };
}

/** The clock runs from the start of a one-minute window for the test: a new window would ask for a new lease. */
function clockFromWindowStart(t: { teardown(fn: () => unknown): void }): void {
  const realNow = Date.now;
  const begun = realNow();
  Date.now = () => Math.floor(begun / 60_000) * 60_000 + (realNow() - begun);
  t.teardown(() => (Date.now = realNow));
}

const limiterWith = (policy: StoreFailurePolicy, limit = 5) => limiterOver(new FlakyStore(), policy, limit);

async function outcomes(limiter: RateLimiter, n: number, id = '203.0.113.9'): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const verdict = await limiter.take(id);
    out.push(verdict === null ? 'unlimited' : verdict.allowed ? 'allowed' : 'refused');
  }
  return out;
}

t.test('local (the default): an unreachable store falls back to a limit counted in this gateway, not to none', async (t) => {
  // Before, every request went through unlimited while the store was unreachable.
  const { limiter, store, lines, registry } = limiterWith('local');
  store.down = true;
  t.same(await outcomes(limiter, 7), [...Array<string>(5).fill('allowed'), 'refused', 'refused']);
  t.same(await outcomes(limiter, 1, '203.0.113.10'), ['allowed'], 'per key, as before');
  t.equal(store.asked, 1, 'the store is not asked again for every request while it is down');
  t.equal(lines.length, 1, 'one warning, not one per request');
  t.match(lines[0], /rate limit store unreachable; counting this gateway's requests alone/);
  const metric = await registry.getSingleMetricAsString('crm_rate_limit_store_unavailable_total');
  t.match(metric, /crm_rate_limit_store_unavailable_total\{limiter="sign-in",policy="local"\} 8/);
});

t.test('open lets requests through, closed refuses them, each counted and logged once', async (t) => {
  const open = limiterWith('open');
  open.store.down = true;
  t.same(await outcomes(open.limiter, 7), Array<string>(7).fill('unlimited'));
  t.equal(open.lines.length, 1);
  t.match(open.lines[0], /letting requests through/);

  const closed = limiterWith('closed');
  closed.store.down = true;
  const verdict = await closed.limiter.take('203.0.113.11');
  t.equal(verdict?.allowed, false);
  t.ok((verdict?.resetSeconds ?? 0) <= STORE_RETRY_MS / 1000, 'retry when the store is tried again');
  t.same(await outcomes(closed.limiter, 3), ['refused', 'refused', 'refused']);
  t.equal(closed.lines.length, 1);
  t.match(closed.lines[0], /refusing requests/);
  t.match(await closed.registry.getSingleMetricAsString('crm_rate_limit_store_unavailable_total'), /policy="closed"\} 4/);
});

t.test('the shared store is used again once it answers', async (t) => {
  const { limiter, store } = limiterWith('closed');
  store.down = true;
  t.same(await outcomes(limiter, 1), ['refused']);
  store.down = false;
  const realNow = Date.now;
  Date.now = () => realNow() + STORE_RETRY_MS + 1;
  t.teardown(() => (Date.now = realNow));
  t.same(await outcomes(limiter, 2), ['allowed', 'allowed'], 'past the retry delay, the store decides again');
  t.ok(store.asked >= 2);
});

t.test('a lease that does not come back holds each request at most STORE_WAIT_MS, and the policy decides it; a late answer is used, a late failure marks the store down', async (t) => {
  // Before, a request waited on the JetStream call's own 5 s timeout, and then on the next lease.
  clockFromWindowStart(t);
  for (const how of ['answer', 'fail'] as const) {
    const { limiter, store, lines, registry } = limiterOver(new StalledStore(), 'local');
    let started = performance.now();
    t.same(await outcomes(limiter, 2), ['allowed', 'allowed'], `${how}: counted by this gateway alone`);
    const waited = performance.now() - started;
    t.ok(waited >= 2 * STORE_WAIT_MS - 10 && waited < 2 * STORE_WAIT_MS + 800, `${how}: each waited at most ${STORE_WAIT_MS} ms (${Math.round(waited)} ms for two)`);
    t.match(lines[0], new RegExp(`did not answer within ${STORE_WAIT_MS} ms.*counting this gateway's requests alone`));
    t.equal(store.stalled, 1, `${how}: one lease asked for, not one per request`);

    store.release(how);
    await new Promise((resolve) => setImmediate(resolve));
    started = performance.now();
    t.same(await outcomes(limiter, 1), ['allowed'], `${how}: the next request`);
    t.ok(performance.now() - started < 100, `${how}: decided without waiting`);
    const decidedAlone = how === 'answer' ? 2 : 3;
    t.match(
      await registry.getSingleMetricAsString('crm_rate_limit_store_unavailable_total'),
      new RegExp(`policy="local"\\} ${decidedAlone}\\b`),
      how === 'answer' ? 'by the counts the late lease brought (the store was not marked down)' : 'without the store, which the failure marked down',
    );
  }
});

t.test('closed: a request the store is too slow for is refused, and a late answer lets the next one through at once', async (t) => {
  clockFromWindowStart(t);
  const { limiter, store } = limiterOver(new StalledStore(), 'closed');
  t.same(await outcomes(limiter, 1), ['refused'], 'refused after waiting STORE_WAIT_MS');
  store.release('answer');
  await new Promise((resolve) => setImmediate(resolve));
  t.same(await outcomes(limiter, 1), ['allowed'], 'not refused for STORE_RETRY_MS: a slow store is not a down one');
});
