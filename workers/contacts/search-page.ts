import { sql } from 'kysely';
import { PLANNED_PER_VALUE } from '../../shared/db/prepared-statement-client.js';
import type { ScopedSelect, WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { matchesWords } from './contact-filters.js';

/** How many rows, per row asked for, a search reads in list order before it asks the trigram index instead. */
const WALK_ROWS_PER_ROW = 80;

/**
 * The first `take` contacts in list order that match the search `q`, among the rows `filtered`
 * selects (the workspace, owner, cursor and other filters already applied).
 *
 * How to find them depends on how many contacts match, which the planner can only guess (for
 * two words it multiplies their frequencies, and "john smith" may match thousands or none):
 * reading in order is fastest for common words and reads the whole workspace for rare ones;
 * the trigram index is fastest for rare words and fetches every match of a common one. So
 * both, bounded: read the next `80 × take` rows in order and keep the matches; only when they
 * are too few, ask the index for every match and sort those. Either way the answer is the
 * same page.
 */
export async function searchPage<O extends { created_at: string; id: string }>(
  db: Pick<WorkspaceSql, 'global'>,
  filtered: ScopedSelect<'contacts', O>,
  q: string,
  direction: 'asc' | 'desc',
  take: number,
  nationalPhone?: string,
): Promise<O[]> {
  const { inOrder, byIndex } = searchStatements(db, filtered, q, direction, take, nationalPhone);
  const walked = await inOrder.execute();
  if (walked.length >= take) return walked as O[];
  return (await byIndex.execute()) as O[];
}

/** The two statements of {@link searchPage}: the bounded read in order, and the index's matches sorted. */
export function searchStatements<O extends { created_at: string; id: string }>(
  db: Pick<WorkspaceSql, 'global'>,
  filtered: ScopedSelect<'contacts', O>,
  q: string,
  direction: 'asc' | 'desc',
  take: number,
  nationalPhone?: string,
) {
  const matches = matchesWords(q, nationalPhone);
  // The words are matched outside the bounded read, so it carries search_text (which reads otherwise leave out).
  const walk = filtered.select(sql<string>`search_text`.as('search_text')).orderBy('created_at', direction).orderBy('id', direction).limit(take * WALK_ROWS_PER_ROW);
  const inOrder = db.global.selectFrom(walk.as('c')).selectAll().where(matches).orderBy('c.created_at', direction).orderBy('c.id', direction).limit(take);
  // OFFSET 0 keeps the order out of the inner query, so it is planned to find the matches (the
  // index), not to read in order; planned for its words each time, never as a generic plan.
  const found = filtered.where(matches).offset(0).modifyFront(sql.raw(PLANNED_PER_VALUE));
  const byIndex = db.global.selectFrom(found.as('c')).selectAll().orderBy('c.created_at', direction).orderBy('c.id', direction).limit(take);
  return { inOrder, byIndex };
}
