import t from 'tap';
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
