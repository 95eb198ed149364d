import t from 'tap';
import { DrainGrace } from '../../shared/bus/drain-grace.js';

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const never = new Promise<void>(() => undefined);

t.test('a drain that NATS confirms in time is waited for, a rejected one too', async (t) => {
  const grace = new DrainGrace(200);
  t.equal(await grace.within(after(20)), true);
  t.equal(await grace.within(Promise.reject(new Error('connection closed'))), true);
});

t.test('each drain has the whole grace period: a slow step before it (webhook attempts) takes none of it', async (t) => {
  const grace = new DrainGrace(100);
  t.equal(await grace.within(after(10)), true, 'the subscriptions drained');
  await after(150);
  t.equal(await grace.within(after(10)), true, 'the connection drains after more than the grace period');
});

t.test('a drain NATS never confirms is cut at the grace period, and later ones are not waited for', async (t) => {
  const grace = new DrainGrace(100);
  const started = Date.now();
  t.same(await Promise.all([grace.within(never), grace.within(never)]), [false, false]);
  t.ok(Date.now() - started < 1_000, 'cut at the grace period');
  const next = Date.now();
  t.equal(await grace.within(never), false);
  t.ok(Date.now() - next < 50, 'at once');
});
