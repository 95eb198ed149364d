import t from 'tap';
import { idOf, newId } from '../../shared/ids.js';

t.test('ids from the pooled random bytes: well formed, ordered by time, never repeated', async (t) => {
  // Several refills of the 4 KB pool (256 ids each), all in the same millisecond.
  const now = Date.now();
  const ids = Array.from({ length: 5_000 }, () => newId('contact', now));
  t.equal(new Set(ids).size, ids.length, 'no id repeats, across refills of the pool');
  for (const id of ids.slice(0, 300)) t.match(id, /^con_[0-9A-HJKMNP-TV-Z]{26}$/);
  t.ok(ids.every((id) => idOf('contact').safeParse(id).success), 'every id passes its own schema');

  const randomParts = new Set(ids.map((id) => id.slice(-16)));
  t.equal(randomParts.size, ids.length, 'the random part alone is unique');
  const later = newId('contact', now + 1);
  t.ok(ids.every((id) => id.slice(4, 14) < later.slice(4, 14)), 'a later millisecond sorts after');
});
