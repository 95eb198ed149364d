import t from 'tap';
import { CURRENT_NAME_OF_ICU_ZONE } from '../../shared/time/renamed-zones.js';
import { addDays, canonicalTimeZone, firstOfMonth, isoWeekday, localDateOf, offsetAt, parseLocalDate, startOfDay, type LocalDate } from '../../shared/time/zoned-day.js';

const day = (text: string): LocalDate => parseLocalDate(text) ?? { year: 0, month: 0, day: 0 };
const iso = (d: Date) => d.toISOString();

t.test('a day starts at its local midnight, across daylight-saving changes', async (t) => {
  const cases: [string, string, string][] = [
    ['UTC', '2026-01-31', '2026-01-31T00:00:00.000Z'],
    // Spring forward at 02:00: the day itself still starts in standard time.
    ['America/Los_Angeles', '2026-03-08', '2026-03-08T08:00:00.000Z'],
    ['America/Los_Angeles', '2026-03-09', '2026-03-09T07:00:00.000Z'],
    // Fall back at 02:00.
    ['America/Los_Angeles', '2026-11-01', '2026-11-01T07:00:00.000Z'],
    ['America/Los_Angeles', '2026-11-02', '2026-11-02T08:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '2026-03-28T23:00:00.000Z'],
    ['Europe/Berlin', '2026-03-30', '2026-03-29T22:00:00.000Z'],
    ['Europe/Berlin', '2026-10-26', '2026-10-25T23:00:00.000Z'],
    ['Pacific/Kiritimati', '2026-01-05', '2026-01-04T10:00:00.000Z'],
    ['Asia/Kolkata', '2026-06-01', '2026-05-31T18:30:00.000Z'],
    // Half an hour of daylight saving.
    ['Australia/Lord_Howe', '2026-10-05', '2026-10-04T13:00:00.000Z'],
    // Clocks skip midnight (00:00 → 01:00): the day starts when they jump, at 01:00.
    ['America/Havana', '2026-03-08', '2026-03-08T05:00:00.000Z'],
    ['America/Santiago', '2026-09-06', '2026-09-06T04:00:00.000Z'],
    // Chile goes back from 24:00 to 23:00: April 5 begins once, in the new offset.
    ['America/Santiago', '2026-04-05', '2026-04-05T04:00:00.000Z'],
  ];
  for (const [zone, date, expected] of cases) t.equal(iso(startOfDay(day(date), zone)), expected, `${date} in ${zone}`);
});

const key = (d: LocalDate) => d.year * 10_000 + d.month * 100 + d.day;

t.test('the start of a day is its first instant, in many zones, on many days', async (t) => {
  const zones = ['UTC', 'America/Los_Angeles', 'America/Santiago', 'America/Havana', 'America/St_Johns', 'Europe/London', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'Pacific/Apia', 'Pacific/Chatham'];
  let checked = 0;
  const wrong: string[] = [];
  const skipped: string[] = [];
  // Every day of 2026, and December 2011 (Samoa skipped December 30, 2011 altogether).
  for (const zone of zones) {
    for (const [first, days] of [[day('2026-01-01'), 365], [day('2011-12-01'), 40]] as const) {
      for (let i = 0; i < days; i++) {
        const date = addDays(first, i);
        const start = startOfDay(date, zone).getTime();
        const landed = localDateOf(start, zone);
        const before = localDateOf(start - 1, zone);
        // The first instant on or after the day: on it (unless the zone skipped it), the millisecond before earlier.
        if (key(landed) < key(date) || key(before) >= key(date)) wrong.push(`${zone} ${key(date)}`);
        if (key(landed) !== key(date)) skipped.push(`${zone} ${key(date)}`);
        checked++;
      }
    }
  }
  t.same(wrong, [], `${checked} days: each starts at its first instant`);
  t.same(skipped, ['Pacific/Apia 20111230'], 'only the day Samoa skipped starts on another');
});

t.test('Samoa skipped a day: its start is the next day', async (t) => {
  // Pacific/Apia went from UTC-10 to UTC+14 after December 29, 2011.
  t.equal(iso(startOfDay(day('2011-12-30'), 'Pacific/Apia')), iso(startOfDay(day('2011-12-31'), 'Pacific/Apia')));
  t.same(localDateOf(startOfDay(day('2011-12-31'), 'Pacific/Apia'), 'Pacific/Apia'), day('2011-12-31'));
});

t.test('offsets and local dates', async (t) => {
  t.equal(offsetAt(Date.parse('2026-07-01T12:00:00Z'), 'America/Los_Angeles'), -7 * 3_600_000);
  t.equal(offsetAt(Date.parse('2026-01-01T12:00:00Z'), 'America/Los_Angeles'), -8 * 3_600_000);
  t.equal(offsetAt(Date.parse('2026-01-01T12:00:00Z'), 'Asia/Kathmandu'), 5.75 * 3_600_000);
  t.same(localDateOf(new Date('2026-01-04T09:59:59.999Z'), 'Pacific/Kiritimati'), day('2026-01-04'));
  t.same(localDateOf(new Date('2026-01-04T10:00:00.000Z'), 'Pacific/Kiritimati'), day('2026-01-05'));
  t.same(localDateOf(new Date('0005-03-01T00:00:00Z'), 'UTC'), { year: 5, month: 3, day: 1 }, 'years below 100 stay themselves');
});

t.test('calendar arithmetic', async (t) => {
  t.same(addDays(day('2026-12-31'), 1), day('2027-01-01'));
  t.same(addDays(day('2024-03-01'), -1), day('2024-02-29'));
  t.equal(isoWeekday(day('2026-03-09')), 1, 'Monday');
  t.equal(isoWeekday(day('2026-03-08')), 7, 'Sunday');
  t.same(firstOfMonth(day('2026-01-15'), -1), day('2025-12-01'));
  t.same(firstOfMonth(day('2026-12-15'), 1), day('2027-01-01'));
});

t.test('dates and zone names are checked', async (t) => {
  t.equal(parseLocalDate('2026-02-29'), null, 'not a leap year');
  t.equal(parseLocalDate('2026-13-01'), null);
  t.equal(parseLocalDate('2026-1-1'), null);
  t.same(parseLocalDate('2024-02-29'), { year: 2024, month: 2, day: 29 });
  t.equal(canonicalTimeZone('europe/paris'), 'Europe/Paris');
  t.equal(canonicalTimeZone('UTC'), 'UTC');
  t.equal(canonicalTimeZone('US/Pacific'), 'America/Los_Angeles', 'a deprecated alias gives its zone');
  // ICU still calls these by their old names; the workspace keeps the current IANA ones.
  t.equal(canonicalTimeZone('Asia/Kolkata'), 'Asia/Kolkata');
  t.equal(canonicalTimeZone('asia/kolkata'), 'Asia/Kolkata');
  t.equal(canonicalTimeZone('Asia/Calcutta'), 'Asia/Kolkata');
  t.equal(canonicalTimeZone('Europe/Kyiv'), 'Europe/Kyiv');
  t.equal(canonicalTimeZone('America/Argentina/Buenos_Aires'), 'America/Argentina/Buenos_Aires');
  for (const [old, current] of Object.entries(CURRENT_NAME_OF_ICU_ZONE)) {
    t.equal(canonicalTimeZone(current), current, `${current} is kept`);
    t.equal(canonicalTimeZone(old), current, `${old} gives ${current}`);
    t.equal(offsetAt(Date.UTC(2026, 0, 15), current), offsetAt(Date.UTC(2026, 0, 15), old), `${current} is ${old}'s zone`);
  }
  t.equal(canonicalTimeZone('Mars/Olympus_Mons'), null);
  t.equal(canonicalTimeZone('+01:00'), null, 'an offset is not a zone');
  t.equal(canonicalTimeZone(''), null);
});
