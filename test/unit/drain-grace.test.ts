import t from 'tap';
import { DrainGrace } from '../../shared/bus/drain-grace.js';

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const never = new Promise<void>(() => undefined);

t.test('a drain that NATS confirms in time is waited for, a rejected one too', async (t) => {
  const grace = new DrainGrace(200);
  t.equal(await grace.within(after(20)), true);
  t.equal(await grace.within(Promise.reject(new Error('connection closed'))), true);
});

t.test('the grace period is at least 2 s: a stall of a very short BUS_TIMEOUT_MS does not cut a healthy drain', async (t) => {
  t.equal(new DrainGrace(100).graceMs, 2_000);
  t.equal(new DrainGrace(3_000).graceMs, 3_000);
  const grace = new DrainGrace(100);
  t.equal(await grace.within(after(300)), true, 'confirmed after more than the BUS_TIMEOUT_MS given');
});

t.test('each drain has the whole grace period: a slow step before it (webhook attempts) takes none of it', async (t) => {
  const grace = new DrainGrace(100);
  t.equal(await grace.within(after(10)), true, 'the subscriptions drained');
  await after(2_100);
  t.equal(await grace.within(after(10)), true, 'the connection drains after more than the grace period');
});

t.test('a drain NATS never confirms is cut at the grace period, and later ones are not waited for', async (t) => {
  const grace = new DrainGrace(100);
  const started = Date.now();
  t.same(await Promise.all([grace.within(never), grace.within(never)]), [false, false]);
  const took = Date.now() - started;
  t.ok(took >= 1_900 && took < 4_000, `cut at the grace period (${took} ms)`);
  t.equal(grace.wasCut, true);
  const next = Date.now();
  t.equal(await grace.within(never), false);
  t.ok(Date.now() - next < 50, 'at once');
});

t.test('a drain not waited for (after a cut) that then fails is no unhandled rejection', async (t) => {
  const grace = new DrainGrace(100);
  await grace.within(never);
  let unhandled = false;
  const onUnhandled = () => (unhandled = true);
  process.once('unhandledRejection', onUnhandled);
  t.equal(await grace.within(Promise.reject(new Error('connection draining'))), false);
  await after(50);
  process.removeListener('unhandledRejection', onUnhandled);
  t.equal(unhandled, false);
});
