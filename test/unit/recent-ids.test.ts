import t from 'tap';
import { RecentIds } from '../../cli/event-tail/recent-ids.js';

t.test('an id is new once; the oldest are forgotten past the capacity', async (t) => {
  const seen = new RecentIds(2);
  t.equal(seen.firstSight('evt_a'), true);
  t.equal(seen.firstSight('evt_a'), false, 'a second copy');
  t.equal(seen.firstSight('evt_b'), true);
  t.equal(seen.firstSight('evt_c'), true);
  t.equal(seen.firstSight('evt_c'), false);
  t.equal(seen.firstSight('evt_a'), true, 'evt_a left when evt_c came');
});
