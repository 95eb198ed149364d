import { sql } from 'kysely';
import { isoTimestamp } from '../../shared/db/sql.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';

/**
 * `closed_at` is kept to the millisecond (timestamptz(3)), and Postgres rounds a finer instant
 * to it. A PATCH repeating `…00.0006Z` was compared, truncated by JavaScript, with the rounded
 * `…00.001Z` and written again each time: updated_at moved, and no event (the deal as shown had
 * not changed) said why. An instant finer than a millisecond, which is rare, is rounded here by
 * Postgres itself, so the comparison and the write see what will be stored.
 */
export async function asStoredInstant(db: WorkspaceSql, instant: string | null | undefined): Promise<string | null | undefined> {
  if (instant === null || instant === undefined || !/\.\d{4,}/.test(instant)) return instant;
  // Timestamps come back as Postgres' text (see shared/db/sql.ts).
  const { rows } = await sql<{ stored: string }>`select ${instant}::timestamptz(3) as stored`.execute(db.global);
  return rows[0] ? isoTimestamp(rows[0].stored) : instant;
}
