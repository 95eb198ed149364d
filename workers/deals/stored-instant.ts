import { sql } from 'kysely';
import { isoTimestamp } from '../../shared/db/sql.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { ValidationError } from '../../shared/errors.js';

/**
 * `closed_at` is kept to the millisecond (timestamptz(3)), and Postgres rounds a finer instant
 * to it. A PATCH repeating `…00.0006Z` was compared, truncated by JavaScript, with the rounded
 * `…00.001Z` and written again each time: updated_at moved, and no event (the deal as shown had
 * not changed) said why. An instant finer than a millisecond, which is rare, is rounded here by
 * Postgres itself, so the comparison and the write see what will be stored.
 *
 * Rounding can carry an instant the gateway took (9999-12-31T23:59:59.9999Z) into the year
 * 10000, which Postgres stores but no ISO timestamp of ours shows: that was a 500 after the
 * write, and a deal created so could not be read; it is a 400 on the field instead.
 */
export async function asStoredInstant(db: WorkspaceSql, instant: string | null | undefined): Promise<string | null | undefined> {
  if (instant === null || instant === undefined || !/\.\d{4,}/.test(instant)) return instant;
  // Timestamps come back as Postgres' text (see shared/db/sql.ts); the year is read in UTC, as the contract bounds it.
  const { rows } = await sql<{ stored: string; year: number }>`
    select ${instant}::timestamptz(3) as stored, extract(year from ${instant}::timestamptz(3) at time zone 'UTC')::int as year`.execute(db.global);
  const row = rows[0];
  if (!row) return instant;
  if (row.year < 1 || row.year > 9999) {
    throw new ValidationError(`closed_at: ${instant} is, rounded to the millisecond that times are kept to, outside the years 0001 to 9999 (UTC).`, 'closed_at');
  }
  return isoTimestamp(row.stored);
}
