import type { AppliedRange, CreatedWithin } from '../../shared/contracts/created-range.js';
import { ValidationError } from '../../shared/errors.js';
import { addDays, firstOfMonth, formatLocalDate, isoWeekday, localDateOf, parseLocalDate, startOfDay, type LocalDate } from '../../shared/time/zoned-day.js';

/** The creation-date filters as a list or count receives them. */
export interface CreatedRangeInput {
  created_after?: string;
  created_before?: string;
  created_within?: CreatedWithin;
}

/** `[start, end)` of a relative range as local dates: end is the first day after it. */
function daysOf(within: CreatedWithin, today: LocalDate): [LocalDate, LocalDate] {
  const monday = addDays(today, 1 - isoWeekday(today));
  switch (within) {
    case 'today':
      return [today, addDays(today, 1)];
    case 'yesterday':
      return [addDays(today, -1), today];
    case 'last_7_days':
      return [addDays(today, -6), addDays(today, 1)];
    case 'this_week':
      return [monday, addDays(monday, 7)];
    case 'last_week':
      return [addDays(monday, -7), monday];
    case 'this_month':
      return [firstOfMonth(today), firstOfMonth(today, 1)];
    case 'last_month':
      return [firstOfMonth(today, -1), firstOfMonth(today)];
  }
}

/** A bound as the UTC instant it selects from (a day: its start in `zone`; an instant: rounded up to the millisecond), refused outside the years 0001 to 9999. */
export function instantOf(param: 'created_after' | 'created_before', value: string | undefined, zone: string): string | null {
  if (value === undefined) return null;
  const day = parseLocalDate(value);
  const instant = day ? startOfDay(day, zone) : wholeMillisecondsUp(value);
  // The gateway keeps what is written within the years 0001 to 9999, but a day's start east of
  // UTC (0001-01-01 in Tokyo) or an instant rounded up (9999-12-31T23:59:59.9999Z) can leave
  // them, and Postgres refuses such a timestamp: a 400 here rather than a 500 there.
  const year = instant.getUTCFullYear();
  if (year < 1 || year > 9999) {
    const how = day ? `begins, in the workspace time zone ${zone},` : 'is, rounded up to the millisecond that times are kept to,';
    throw new ValidationError(`${param}: ${value} ${how} outside the years 0001 to 9999 (UTC); give a date within them.`, param);
  }
  return instant.toISOString();
}

/**
 * An instant as created_at (milliseconds) can hold it: Date truncates finer digits, which would
 * take in the row of that millisecond before a created_after and leave it out before a
 * created_before; rounded up instead, `>=` and `<` select what the exact instant would.
 */
export function wholeMillisecondsUp(value: string): Date {
  const date = new Date(value);
  const finer = /\.\d{3}(\d+)/.exec(value)?.[1];
  return finer !== undefined && /[1-9]/.test(finer) ? new Date(date.getTime() + 1) : date;
}

/**
 * The half-open range `[created_after, created_before)` the filters select, as UTC instants:
 * days begin at their start in `zone`, and a relative range is the days around `now` there.
 */
export function resolveCreatedRange(f: CreatedRangeInput, zone: string, now: Date): AppliedRange {
  if (f.created_within !== undefined) {
    if (f.created_after !== undefined || f.created_before !== undefined) {
      throw new ValidationError('created_within cannot be combined with created_after or created_before; use one or the other.', 'created_within');
    }
    const [first, end] = daysOf(f.created_within, localDateOf(now, zone));
    return { created_after: startOfDay(first, zone).toISOString(), created_before: startOfDay(end, zone).toISOString(), time_zone: zone };
  }
  const range = { created_after: instantOf('created_after', f.created_after, zone), created_before: instantOf('created_before', f.created_before, zone), time_zone: zone };
  if (range.created_after !== null && range.created_before !== null && range.created_before <= range.created_after) {
    // A skipped day is the cause only of a range whose ends fall on one instant; a backwards range is the usual slip.
    const skipped = range.created_before === range.created_after ? skippedDayOf(f, zone) : null;
    throw new ValidationError(emptyRangeMessage(localDateOf(new Date(range.created_after), zone), skipped, zone), 'created_before');
  }
  return range;
}

/**
 * A day given as a bound that the zone's clocks skipped (Pacific/Apia went from December 29 to
 * December 31, 2011): it begins when the next day does, so a range of it alone holds nothing.
 */
function skippedDayOf(f: CreatedRangeInput, zone: string): LocalDate | null {
  for (const value of [f.created_after, f.created_before]) {
    const day = value === undefined ? null : parseLocalDate(value);
    if (day && startOfDay(day, zone).getTime() === startOfDay(addDays(day, 1), zone).getTime()) return day;
  }
  return null;
}

/**
 * Why an empty or backwards range is refused rather than answered with nothing: the usual
 * slip is giving the same day twice for one day, so the example is the range of the day
 * created_after falls on, in the workspace time zone; a day the zone skipped is named as such,
 * since no range can select it.
 */
function emptyRangeMessage(day: LocalDate, skipped: LocalDate | null, zone: string): string {
  if (skipped) {
    return `created_before must be later than created_after: the day ${formatLocalDate(skipped)} did not happen in the workspace time zone ${zone} (its clocks skipped it), so this range holds nothing.`;
  }
  const [first, next] = [formatLocalDate(day), formatLocalDate(addDays(day, 1))];
  return `created_before must be later than created_after: created_before is exclusive (the range is [created_after, created_before)), so this range holds nothing. For the single day ${first} give created_after ${first} and created_before ${next}.`;
}
