/**
 * Calendar days in an IANA time zone, and the UTC instants where they start. Node has no
 * Temporal yet, so the zone's offset at an instant is read from Intl.DateTimeFormat and the
 * rest is arithmetic on plain dates; days that start in a daylight-saving gap or overlap are
 * handled (the day starts at its first instant).
 */

import { CURRENT_NAME_OF_ICU_ZONE } from './renamed-zones.js';

/** A calendar date with no zone: month 1 to 12. */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** An IANA name: letters, digits and `_ + -` in parts separated by `/` (not an offset such as +01:00). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * The zone's canonical name when `name` is a time zone this runtime knows, else null. Case
 * does not matter (`europe/paris` → `Europe/Paris`), an alias gives its zone's current IANA
 * name (`US/Pacific` → `America/Los_Angeles`, `Asia/Calcutta` → `Asia/Kolkata`).
 */
export function canonicalTimeZone(name: string): string | null {
  if (!ZONE_NAME.test(name) || name.length > 64) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return CURRENT_NAME_OF_ICU_ZONE[resolved] ?? resolved;
}

/** The wall clock of `instant` in `zone`, as if that wall clock were UTC (milliseconds). */
function wallClockMs(instant: number, zone: string): number {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(instant))) parts[part.type] = part.value;
  const yearOfEra = Number(parts.year);
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - yearOfEra : yearOfEra;
  const wall = Date.UTC(0, Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  // Date.UTC maps years 0 to 99 onto 1900 to 1999; set the year apart.
  const date = new Date(wall);
  date.setUTCFullYear(year);
  return date.getTime() + (((instant % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at `instant`, in milliseconds (positive east of Greenwich). */
export function offsetAt(instant: number, zone: string): number {
  return wallClockMs(instant, zone) - instant;
}

function utcMsOf(date: LocalDate): number {
  const d = new Date(Date.UTC(2000, date.month - 1, date.day));
  d.setUTCFullYear(date.year);
  return d.getTime();
}

/** The calendar date `instant` falls on in `zone`. */
export function localDateOf(instant: Date | number, zone: string): LocalDate {
  const wall = new Date(wallClockMs(typeof instant === 'number' ? instant : instant.getTime(), zone));
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() };
}

/** `date` moved by `days` calendar days (negative: back). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(utcMsOf(date) + days * DAY);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** `date`'s day of the week, ISO numbering: Monday 1 to Sunday 7. */
export function isoWeekday(date: LocalDate): number {
  return ((new Date(utcMsOf(date)).getUTCDay() + 6) % 7) + 1;
}

/** The first day of `date`'s month moved by `months` months. */
export function firstOfMonth(date: LocalDate, months = 0): LocalDate {
  const index = date.year * 12 + (date.month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1, day: 1 };
}

/**
 * The UTC instant at which `date` begins in `zone`: its local midnight, or, where the clocks
 * skip midnight (a daylight-saving change at 00:00), the moment they jump to after it; where
 * midnight happens twice, the first one.
 */
export function startOfDay(date: LocalDate, zone: string): Date {
  const midnight = utcMsOf(date);
  // The offsets in force a day either side cover every change that can touch this midnight.
  const offsets = [...new Set([offsetAt(midnight - DAY, zone), offsetAt(midnight, zone), offsetAt(midnight + DAY, zone)])];
  const exact = offsets
    .map((offset) => midnight - offset)
    .filter((instant) => wallClockMs(instant, zone) === midnight)
    .sort((a, b) => a - b);
  if (exact[0] !== undefined) return new Date(exact[0]);
  // Midnight falls in a gap: the day starts at the change, the first instant whose wall clock is past midnight.
  let before = midnight - Math.max(...offsets);
  let after = midnight - Math.min(...offsets);
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (wallClockMs(middle, zone) >= midnight) after = middle;
    else before = middle;
  }
  return new Date(after);
}

/** `date` as `YYYY-MM-DD`. */
export function formatLocalDate(date: LocalDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** Parses `YYYY-MM-DD` (a real calendar date), else null. */
export function parseLocalDate(text: string): LocalDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  if (date.year < 1 || date.month < 1 || date.month > 12 || date.day < 1) return null;
  const normalised = addDays(date, 0);
  return normalised.month === date.month && normalised.day === date.day ? date : null;
}
