import { sql, type RawBuilder } from 'kysely';
import type { AppliedRange, CreatedWithin } from '../../shared/contracts/created-range.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { ValidationError } from '../../shared/errors.js';
import { addDays, firstOfMonth, isoWeekday, localDateOf, parseLocalDate, startOfDay, type LocalDate } from '../../shared/time/zoned-day.js';

/** The creation-date filters as a list or count receives them. */
export interface CreatedRangeInput {
  created_after?: string;
  created_before?: string;
  created_within?: CreatedWithin;
}

/** Whether reading the filters needs the workspace's time zone (a day, or a relative range). */
export function needsTimeZone(f: CreatedRangeInput): boolean {
  const isDay = (v: string | undefined) => v !== undefined && parseLocalDate(v) !== null;
  return f.created_within !== undefined || isDay(f.created_after) || isDay(f.created_before);
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

function instantOf(value: string | undefined, zone: string): string | null {
  if (value === undefined) return null;
  const day = parseLocalDate(value);
  return (day ? startOfDay(day, zone) : new Date(value)).toISOString();
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
  return { created_after: instantOf(f.created_after, zone), created_before: instantOf(f.created_before, zone), time_zone: zone };
}

/** What reading filters can depend on: the workspace's default country (phones) and time zone (days). */
export interface FilterSettings {
  default_country: string | null;
  time_zone: string;
}

/** The workspace's settings that filters are read with, in one round trip. */
export async function loadFilterSettings(db: WorkspaceSql): Promise<FilterSettings> {
  return db.global.selectFrom('workspaces').select(['default_country', 'time_zone']).where('id', '=', db.workspaceId).executeTakeFirstOrThrow();
}

/**
 * The settings a list or count reads before its query, when its filters need them (a phone, a
 * day, a relative range); null otherwise, and the time zone it echoes comes with its rows
 * ({@link timeZoneSql}), sparing a round trip.
 */
export async function settingsFirst(db: WorkspaceSql, f: CreatedRangeInput & { phone?: string }): Promise<FilterSettings | null> {
  return f.phone !== undefined || needsTimeZone(f) ? loadFilterSettings(db) : null;
}

/** The time zone a list or count echoes: read first, else with its rows, else (no rows) now. */
export async function echoedTimeZone(db: WorkspaceSql, settings: FilterSettings | null, row: { time_zone?: string } | undefined): Promise<string> {
  return settings?.time_zone ?? row?.time_zone ?? (await loadFilterSettings(db)).time_zone;
}

/**
 * The workspace's time zone as a column of a read (an uncorrelated subquery, computed once per
 * statement): a list or count filtered by instants only echoes it without a second round trip.
 */
export function timeZoneSql(db: WorkspaceSql): RawBuilder<string> {
  return sql<string>`${db.global.selectFrom('workspaces').select('time_zone').where('id', '=', db.workspaceId)}`;
}
