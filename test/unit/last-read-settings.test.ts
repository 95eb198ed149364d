import t from 'tap';
import { ValidationError } from '../../shared/errors.js';
import { LastReadSettings } from '../../workers/runtime/last-read-settings.js';

type Settings = { settings_version: number; zone: string };

t.test('a copy read later but older than the one held does not replace it', async (t) => {
  const cache = new LastReadSettings<Settings>();
  t.same(cache.remember('ws_A', { settings_version: 2, zone: 'Asia/Tokyo' }), { settings_version: 2, zone: 'Asia/Tokyo' });
  // A read that began before the change finishes after it: the newer copy is kept and handed out.
  t.same(cache.remember('ws_A', { settings_version: 1, zone: 'UTC' }), { settings_version: 2, zone: 'Asia/Tokyo' });
  t.equal(cache.get('ws_A')?.zone, 'Asia/Tokyo');
  t.same(cache.remember('ws_A', { settings_version: 3, zone: 'Europe/Paris' }), { settings_version: 3, zone: 'Europe/Paris' });
  t.equal(cache.get('ws_B'), undefined, "another workspace's key finds nothing");
});

t.test('bounded: the entry read longest ago leaves first', async (t) => {
  const cache = new LastReadSettings<Settings>(2);
  cache.remember('ws_A', { settings_version: 1, zone: 'UTC' });
  cache.remember('ws_B', { settings_version: 1, zone: 'UTC' });
  cache.remember('ws_A', { settings_version: 2, zone: 'UTC' }); // read again: now the newest
  cache.remember('ws_C', { settings_version: 1, zone: 'UTC' });
  t.equal(cache.get('ws_B'), undefined, 'ws_B left');
  t.equal(cache.get('ws_A')?.settings_version, 2);
  t.equal(cache.get('ws_C')?.settings_version, 1);
});

/** What Postgres raises when a statement's settings_version check fails (migration 0012). */
const staleError = () => Object.assign(new Error('settings changed'), { code: 'CRMSV' });

t.test('use: the held copy, checked; a stale one is read again and the call made again', async (t) => {
  const cache = new LastReadSettings<Settings>();
  cache.remember('ws_A', { settings_version: 1, zone: 'UTC' });
  let loads = 0;
  const load = async () => cache.remember('ws_A', { settings_version: 2 + loads++, zone: 'Asia/Tokyo' });
  const seen: string[] = [];
  const zone = await cache.use('ws_A', load, { inTransaction: false }, async (settings, check) => {
    seen.push(`${settings.zone} ${check}`);
    if (settings.settings_version === 1) throw staleError();
    return settings.zone;
  });
  t.equal(zone, 'Asia/Tokyo');
  t.same(seen, ['UTC true', 'Asia/Tokyo true']);
  t.equal(loads, 1);
});

t.test('use: a refusal made with a copy that is still current is not made again', async (t) => {
  const cache = new LastReadSettings<Settings>();
  cache.remember('ws_A', { settings_version: 4, zone: 'UTC' });
  let calls = 0;
  const refused = cache.use('ws_A', async () => ({ settings_version: 4, zone: 'UTC' }), { inTransaction: false }, async () => {
    calls++;
    throw new ValidationError('not a phone in the default country', 'phone');
  });
  await t.rejects(refused, { code: 'validation_failed' });
  t.equal(calls, 1);
  await t.rejects(
    cache.use('ws_A', async () => ({ settings_version: 4, zone: 'UTC' }), { inTransaction: false }, async () => {
      throw new TypeError('a fault, not a refusal');
    }),
    TypeError,
    'other errors pass through untouched',
  );
});

t.test('use: settings that keep moving end in a retryable 503 after three tries; in a transaction they are read first and not checked', async (t) => {
  const cache = new LastReadSettings<Settings>();
  let version = 0;
  let calls = 0;
  const load = async () => cache.remember('ws_A', { settings_version: ++version, zone: 'UTC' });
  await t.rejects(
    cache.use('ws_A', load, { inTransaction: false }, async () => {
      calls++;
      throw staleError();
    }),
    { code: 'unavailable' },
  );
  t.equal(calls, 3);
  const checks: boolean[] = [];
  await cache.use('ws_A', load, { inTransaction: true }, async (_settings, check) => checks.push(check));
  t.same(checks, [false]);
  t.equal(cache.get('ws_A')?.settings_version, version, 'read afresh');
});
