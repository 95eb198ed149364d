import t from 'tap';
import { ValidationError } from '../../shared/errors.js';
import { resolveCreatedRange } from '../../workers/runtime/created-range.js';

/** What `resolve` throws (undefined when it returns): each refusal below is checked field by field. */
function refusalOf(resolve: () => unknown): unknown {
  try {
    resolve();
  } catch (error) {
    return error;
  }
  return undefined;
}

const LA = 'America/Los_Angeles';
const KIRITIMATI = 'Pacific/Kiritimati';

t.test('relative ranges around a fixed now, in the zone', async (t) => {
  // Wednesday March 11, 2026, 05:00 in Los Angeles; clocks went forward on Sunday March 8.
  const now = new Date('2026-03-11T12:00:00Z');
  const within = (w: Parameters<typeof resolveCreatedRange>[0]['created_within']) => resolveCreatedRange({ created_within: w }, LA, now);
  t.same(within('today'), { created_after: '2026-03-11T07:00:00.000Z', created_before: '2026-03-12T07:00:00.000Z', time_zone: LA });
  t.same(within('yesterday'), { created_after: '2026-03-10T07:00:00.000Z', created_before: '2026-03-11T07:00:00.000Z', time_zone: LA });
  t.same(within('last_7_days'), { created_after: '2026-03-05T08:00:00.000Z', created_before: '2026-03-12T07:00:00.000Z', time_zone: LA }, 'today and the six days before');
  t.same(within('this_week'), { created_after: '2026-03-09T07:00:00.000Z', created_before: '2026-03-16T07:00:00.000Z', time_zone: LA }, 'from Monday');
  t.same(within('last_week'), { created_after: '2026-03-02T08:00:00.000Z', created_before: '2026-03-09T07:00:00.000Z', time_zone: LA }, 'a week of 167 hours');
  t.same(within('this_month'), { created_after: '2026-03-01T08:00:00.000Z', created_before: '2026-04-01T07:00:00.000Z', time_zone: LA });
  t.same(within('last_month'), { created_after: '2026-02-01T08:00:00.000Z', created_before: '2026-03-01T08:00:00.000Z', time_zone: LA });
});

t.test('the same instant is another day at UTC+14', async (t) => {
  // 2026-01-04T10:30Z is Monday January 5, 00:30 in Kiritimati, but still Sunday in UTC.
  const now = new Date('2026-01-04T10:30:00Z');
  t.same(resolveCreatedRange({ created_within: 'today' }, KIRITIMATI, now).created_after, '2026-01-04T10:00:00.000Z');
  t.same(resolveCreatedRange({ created_within: 'this_week' }, KIRITIMATI, now), { created_after: '2026-01-04T10:00:00.000Z', created_before: '2026-01-11T10:00:00.000Z', time_zone: KIRITIMATI });
  t.same(resolveCreatedRange({ created_within: 'last_week' }, KIRITIMATI, now), { created_after: '2025-12-28T10:00:00.000Z', created_before: '2026-01-04T10:00:00.000Z', time_zone: KIRITIMATI });
  t.same(resolveCreatedRange({ created_within: 'last_week' }, 'UTC', now), { created_after: '2025-12-22T00:00:00.000Z', created_before: '2025-12-29T00:00:00.000Z', time_zone: 'UTC' }, 'in UTC the week before');
  t.same(resolveCreatedRange({ created_within: 'last_month' }, KIRITIMATI, now).created_after, '2025-11-30T10:00:00.000Z', 'December, across the year');
});

t.test('days and instants', async (t) => {
  t.same(resolveCreatedRange({ created_after: '2026-01-01', created_before: '2026-01-31' }, LA, new Date()), {
    created_after: '2026-01-01T08:00:00.000Z',
    created_before: '2026-01-31T08:00:00.000Z',
    time_zone: LA,
  }, 'created_before a day ends where that day begins');
  t.same(resolveCreatedRange({ created_after: '2026-01-01T01:00:00+01:00' }, LA, new Date()), { created_after: '2026-01-01T00:00:00.000Z', created_before: null, time_zone: LA }, 'instants stay instants, in UTC');
  t.same(resolveCreatedRange({}, LA, new Date()), { created_after: null, created_before: null, time_zone: LA });
  // created_at holds milliseconds: a finer instant is the next millisecond for both ends (Date alone truncates).
  t.same(resolveCreatedRange({ created_after: '2026-01-01T00:00:00.0001Z', created_before: '2026-01-01T00:00:00.0020001Z' }, LA, new Date()), {
    created_after: '2026-01-01T00:00:00.001Z',
    created_before: '2026-01-01T00:00:00.003Z',
    time_zone: LA,
  }, 'finer than milliseconds: rounded up');
  t.same(resolveCreatedRange({ created_after: '2026-01-01T00:00:00.001000Z' }, LA, new Date()).created_after, '2026-01-01T00:00:00.001Z', 'zeros below the millisecond change nothing');
});

t.test('created_within with created_after or created_before is refused', async (t) => {
  for (const extra of [{ created_after: '2026-01-01' }, { created_before: '2026-01-01T00:00:00Z' }]) {
    const error = refusalOf(() => resolveCreatedRange({ created_within: 'today', ...extra }, 'UTC', new Date()));
    t.ok(error instanceof ValidationError, Object.keys(extra).join());
    t.same((error as ValidationError).details, { param: 'created_within' });
  }
});

t.test('an empty or backwards range is refused on created_before, with the range of one day', async (t) => {
  for (const [range, example] of [
    [{ created_after: '2026-01-31', created_before: '2026-01-31' }, /single day 2026-01-31 give created_after 2026-01-31 and created_before 2026-02-01/],
    [{ created_after: '2026-12-31', created_before: '2026-01-01' }, /created_before 2027-01-01/],
    // An instant: the day it falls on in the workspace time zone (noon in Los Angeles).
    [{ created_after: '2026-03-05T20:00:00Z', created_before: '2026-03-05T20:00:00Z' }, /single day 2026-03-05 give created_after 2026-03-05 and created_before 2026-03-06/],
    [{ created_after: '2026-01-31', created_before: '2026-01-31T07:59:59Z' }, /created_before 2026-02-01/],
  ] as const) {
    const error = refusalOf(() => resolveCreatedRange(range, LA, new Date()));
    t.ok(error instanceof ValidationError, JSON.stringify(range));
    t.same((error as ValidationError).details, { param: 'created_before' });
    t.match((error as ValidationError).message, /exclusive/);
    t.match((error as ValidationError).message, example);
  }
  t.same(resolveCreatedRange({ created_after: '2026-01-31', created_before: '2026-01-31T08:00:00.001Z' }, LA, new Date()).created_before, '2026-01-31T08:00:00.001Z', 'a millisecond is a range');
});

t.test('a day or instant that leaves the years 0001 to 9999 in UTC is a 400 naming it, not a timestamp Postgres refuses', async (t) => {
  for (const [range, zone, param] of [
    // January 1 of the year 1 begins on December 31 of the year 0 in UTC, east of Greenwich.
    [{ created_after: '0001-01-01' }, 'Asia/Tokyo', 'created_after'],
    [{ created_before: '0001-01-01' }, 'Asia/Kolkata', 'created_before'],
    // Rounded up to the millisecond, into the year 10000.
    [{ created_after: '9999-12-31T23:59:59.9999Z' }, 'UTC', 'created_after'],
    [{ created_before: '9999-12-31T23:59:59.9991Z' }, LA, 'created_before'],
  ] as const) {
    const error = refusalOf(() => resolveCreatedRange(range, zone, new Date()));
    t.ok(error instanceof ValidationError, JSON.stringify(range));
    t.same((error as ValidationError).details, { param }, JSON.stringify(range));
    t.match((error as ValidationError).message, /outside the years 0001 to 9999 \(UTC\)/);
  }
  t.same(resolveCreatedRange({ created_after: '0001-01-02', created_before: '9999-12-31' }, 'Asia/Tokyo', new Date()), {
    created_after: '0001-01-01T14:41:01.000Z',
    created_before: '9999-12-30T15:00:00.000Z',
    time_zone: 'Asia/Tokyo',
  }, 'the days next to the edges still work');
  t.equal(resolveCreatedRange({ created_after: '0001-01-01' }, LA, new Date()).created_after, '0001-01-01T07:52:58.000Z', 'west of UTC the first day is in range');
});

t.test('a day the zone skipped: the refusal says so rather than suggesting another day', async (t) => {
  // Samoa moved across the date line: in Pacific/Apia, December 29, 2011 was followed by December 31.
  const error = refusalOf(() => resolveCreatedRange({ created_after: '2011-12-30', created_before: '2011-12-31' }, 'Pacific/Apia', new Date()));
  t.ok(error instanceof ValidationError);
  t.same((error as ValidationError).details, { param: 'created_before' });
  t.match((error as ValidationError).message, /2011-12-30 did not happen in the workspace time zone Pacific\/Apia/);
  t.notMatch((error as ValidationError).message, /For the single day 2011-12-31/);
  t.equal(
    resolveCreatedRange({ created_after: '2011-12-29', created_before: '2011-12-31' }, 'Pacific/Apia', new Date()).created_before,
    '2011-12-30T10:00:00.000Z',
    'a range around the skipped day still works',
  );
  const backwards = refusalOf(() => resolveCreatedRange({ created_after: '2011-12-30', created_before: '2011-12-01' }, 'Pacific/Apia', new Date()));
  t.notMatch((backwards as ValidationError).message, /did not happen/, 'a backwards range that names the skipped day is refused as backwards');
});
